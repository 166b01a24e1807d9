"""Memoised rules functions keyed by the card attributes they read (``functions.faces_only``):
the same results and the same work as computing each call, and no such key where the cards
could matter as the cards they are."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import rulelang
from rulelang.functions import faces_only
from rulelang.runtime import LIMIT, WORK

GAME = """\
name: Faces
players: {min: 2, max: 2}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [S, H, D, C], copies: 2}
values:
  pips: {2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 10, Q: 10, K: 10, A: 11}
zones:
  stock: {visibility: hidden, home: true}
  hand: {per_player: true, visibility: owner}
functions:
  points(cs): sum(pips[c.rank] for c in cs)
  best(cs): if size(cs) > 1 and cs[0].suit == cs[1].suit then points(cs) + 1 else points(cs)
  same(cs): any(c == d for c in cs for d in cs if c != d)
  firsts(cs): "[c for c in cs if c.rank == 'A']"
  led(cs): "if is_run(cs[1:], suited: false) and cs[0].rank != 'K' then size(cs) else 0"
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 3)"]
  settle: {done: pass}
phases:
  play:
    actions:
      pass:
        do: end_round('done')
"""


def test_functions_are_keyed_by_the_attributes_they_read(tmp_path: Path) -> None:
    p = tmp_path / "faces.yaml"
    p.write_text(GAME, encoding="utf-8")
    game = rulelang.load(str(p))
    faces = faces_only(game.functions)
    assert faces["points"] == [frozenset({"rank"})]
    assert faces["best"] == [frozenset({"rank", "suit"})]
    assert faces["same"] == [None]  # cards compared as the cards they are
    assert "firsts" not in faces  # gives cards back
    assert faces_only(rulelang.load("blackjack").functions)["total"] == [frozenset({"rank"})]
    s = game.new_state(None, seed=1, record=False)
    # cards 0..103 in two packs: every hand of ranks 2 3 4, of any suits and packs
    hands = [[a, b, c] for a in range(0, 104, 13) for b in range(1, 104, 13)
             for c in range(2, 104, 13)]
    # one pass over its cards: no memo, its body charges what a paused memo would (the key's
    # items), then the call and its loop
    assert game.functions["points"].charges_key and not hasattr(game.functions["points"].fn,
                                                                "memo")
    for h in hands:
        WORK[0] = LIMIT[0] = 10_000
        assert 6 <= game.functions["points"].fn(s, list(h)) <= 33
        assert 10_000 - WORK[0] == len(h) + 1 + len(h)
    for name in ("best", "same"):
        memo = game.functions[name].fn
        inner = memo.memo["inner"]
        for h in hands:
            WORK[0] = LIMIT[0] = 10_000
            want = inner(s, list(h))
            used = 10_000 - WORK[0]
            WORK[0] = LIMIT[0] = 10_000
            assert memo(s, list(h)) == want
            WORK[0] = LIMIT[0] = 10_000
            assert memo(s, list(h)) == want  # remembered, or keyed alike
            assert 10_000 - WORK[0] == used + len(h)  # its work, and the key's items


def test_order_free_through_rules_functions_and_keyed_by_kinds() -> None:
    """``total(cards)`` passes its cards only to order-free ``hard`` and ``soft``: it is
    order-free too, and a hand of cards only is keyed by the sum of its kinds' weights, so
    that the same ranks in other suits, decks or orders are one entry (with the same work)."""
    game = rulelang.load("blackjack")
    fns = game.functions
    assert fns["total"].order_free == fns["soft"].order_free == (True,)
    memo = fns["total"].fn
    cache = memo.memo["cache"]
    s = game.new_state(None, seed=1, record=False)
    cache.clear()
    # 2 A 3 (soft 16), then 3 A 2 of other suits and decks, then K 4 A (15)
    _same_as_computed(memo, s, (([0, 48, 4], 16), ([5, 49 + 52, 1 + 104], 16),
                                ([44, 8, 51], 15)))
    assert len(cache) == 2


def test_a_list_whose_order_matters_is_keyed_by_its_faces_in_order(tmp_path: Path) -> None:
    """``led(cs)`` reads its cards' ranks and, through a run test of any suits, their places:
    the same ranks in the same order, of other suits or packs, are one entry; another order
    is another."""
    p = tmp_path / "faces.yaml"
    p.write_text(GAME, encoding="utf-8")
    game = rulelang.load(str(p))
    assert faces_only(game.functions)["led"] == [frozenset({"rank", "order"})]
    memo = game.functions["led"].fn
    cache = memo.memo["cache"]
    s = game.new_state(None, seed=1, record=False)
    cache.clear()
    # (cards by rank, then suit: 0 2S, 1 2H, 4 3S...) 2 3 4, 3 2 4, K 3 4
    _same_as_computed(memo, s, (([0, 4, 8], 3), ([1, 5 + 52, 10], 3), ([4, 0, 8], 0),
                                ([44, 4, 8], 0), ([3, 6, 9], 3)))
    assert len(cache) == 3


def _same_as_computed(memo: Any, s: Any, cases: Any) -> None:
    """Each hand's result through the memo is the function's own, and charges its work plus
    the key's items."""
    inner = memo.memo["inner"]
    for h, want in cases:
        WORK[0] = LIMIT[0] = 10_000
        assert inner(s, list(h)) == want
        used = 10_000 - WORK[0]
        WORK[0] = LIMIT[0] = 10_000
        assert memo(s, list(h)) == want
        assert 10_000 - WORK[0] == used + len(h)
