"""Work a search's steps and heuristic are spared, with the same results and the same work
charged: a function's tail after its ``let``s remembered by their values (lettail.py), an
order-free list of texts keyed in its order (memokeys.py), two actions' first arguments over
the same options made once in a listing (flowgen.py), and a playout's last judgement read again
rather than worked out again (ismcts.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
import rulelang.flowgen as flowgen
import rulelang.lettail as lettail
from rulelang.ismcts import ISMCTSAgent
from rulelang.runtime import LIMIT, WORK

GAME = """\
name: Tails
players: {min: 2, max: 2}
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K], suits: [S, H, D, C]}
zones:
  stock: {visibility: hidden, home: true}
  hand: {per_player: true, visibility: owner}
functions:
  melds(cs): sets(cs, 2, 3) + runs(cs, 3)
  best(cs): >-
    let ms = melds(cs);
    max([ch for k in range(0, 3) for ch in disjoint(ms, k)], key: ch -> sum(size(m) for m in ch))
  whole(cs): >-
    let ms = melds(cs);
    max([ch for k in range(0, 3) for ch in disjoint(ms, k) if size(cs) > 0], key: ch -> size(ch))
  mine(p): let h = hand[p]; size([c for c in h for d in h if c < d])
  seen(cs): let n = size(cs); size([c for c in hand[0] for d in cs if c != d]) + n
  bad(cs): let xs = [c.rank for c in cs]; size([xs[20] for x in xs for y in xs])
  cost(g, t): if g[0].rank in t then 0.5 * size(g) else 1.5 * size(g)
  picks(p): "[x for x in hand[p] if size(melds(hand[p])) >= 0 and x.rank != 'K']"
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 7)"]
  settle: {done: pass}
phases:
  play:
    actions:
      pass:
        do: end_round('done')
      low:
        args: {c: "picks(me)"}
        when: c.order < 7
        do: end_round('done')
      high:
        args: {c: "picks(me)"}
        when: c.order >= 7
        do: end_round('done')
"""


def _run(fn: Any, *args: Any) -> tuple[Any, int]:
    WORK[0] = LIMIT[0] = 100_000
    return fn(*args), 100_000 - WORK[0]


def test_a_tail_after_lets_is_remembered_by_their_values(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "tails.yaml"
    p.write_text(GAME, encoding="utf-8")
    fns = rulelang.load(str(p)).functions
    assert fns["best@let"].params == ("ms",) and fns["mine@let"].params == ("h",)
    assert fns["best@let"].pure and fns["mine@let"].pure
    assert "whole@let" not in fns  # its tail reads the cards themselves
    assert "seen@let" not in fns  # its tail reads a hand of the game
    assert "melds@let" not in fns and "cost@let" not in fns  # no let
    monkeypatch.setattr(lettail, "_split", lambda *a: None)
    game = rulelang.load(str(p))
    plain = game.functions
    assert not any("@" in name for name in plain)
    s = game.new_state(None, seed=1, record=False)
    # (cards rank by rank: 0 AS, 1 AH ... 4 2S) 2S 2H 2D 3S 4S 5S KC; 3H 4H 5H 6H 9D 9C AS;
    # AS 2H 3D 4C 6S 7H 8D and 2C 3C 4D 5C 7D 9H JS, no meld; the first again
    hands = [[4, 5, 6, 8, 12, 16, 51], [9, 13, 17, 21, 34, 35, 0], [0, 5, 10, 15, 20, 25, 30],
             [7, 11, 14, 19, 26, 33, 40], [4, 5, 6, 8, 12, 16, 51]]
    tail = fns["best@let"].fn
    tail.memo["cache"].clear()
    for h in hands * 2:
        ms, _ = _run(plain["melds"].fn, s, list(h))
        want, used = _run(plain["best"].fn, s, list(h))
        got, work = _run(fns["best"].fn, s, list(h))
        # the same melding, its work and the key's items (the melds and their cards)
        assert got == want
        assert work == used + len(ms) + sum(len(m) for m in ms)
    assert tail.memo["seen"][1] > 0  # found again
    assert len(tail.memo["cache"]) == 3  # the two hands without a meld are one entry
    assert _run(fns["mine"].fn, s, 1)[0] == _run(plain["mine"].fn, s, 1)[0] == 21
    with pytest.raises(rulelang.RulesError) as split:
        _run(fns["bad"].fn, s, [0, 1, 2])
    with pytest.raises(rulelang.RulesError) as inline:
        _run(plain["bad"].fn, s, [0, 1, 2])
    assert str(split.value) == str(inline.value) and split.value.span == inline.value.span


def test_an_order_free_list_of_texts_is_keyed_in_its_order(tmp_path: Path) -> None:
    # cost(g, t) only searches t (order-free), whose texts an order-free key could not sort:
    # such a list is keyed as it is, and its float results are kept
    p = tmp_path / "tails.yaml"
    p.write_text(GAME, encoding="utf-8")
    game = rulelang.load(str(p))
    uf = game.functions["cost"]
    assert uf.order_free == (False, True)
    memo = uf.fn
    cache = memo.memo["cache"]
    cache.clear()
    s = game.new_state(None, seed=1, record=False)
    inner = memo.memo["inner"]
    for g, t, want in (([0, 1], ["A", "K"], 1.0), ([0, 1], ["K", "A"], 1.0),
                       ([4], ["A", "K"], 1.5), ([0, 1], ["A", "K"], 1.0), ([0], [], 1.5)):
        assert _run(inner, s, g, t)[0] == want
        used = _run(inner, s, g, t)[1]
        assert _run(memo, s, g, t) == (want, used + len(g) + len(t))
    # the texts in their order (AS AH as any two aces: faces); the empty list is sorted, as
    # before, so its float result is not kept
    assert len(cache) == 3


class _JudgedAgain(ISMCTSAgent):
    """A playout's end judged afresh for every seat (the reference for reading the last
    step's judgement again)."""

    judged = 0

    def _values(self, world: Any, h: Any, start: dict[int, float]) -> Any:
        self._judged = None
        return super()._values(world, h, start)

    def _judge(self, world: Any, h: Any, s: Any, seat: int) -> float:
        type(self).judged += 1
        return super()._judge(world, h, s, seat)


class _Counted(_JudgedAgain):
    judged = 0

    def _values(self, world: Any, h: Any, start: dict[int, float]) -> Any:
        return ISMCTSAgent._values(self, world, h, start)


def test_a_playouts_last_judgement_is_read_again_with_its_work() -> None:
    g = rulelang.load("thirty-one")
    s = g.new_state(3, seed=2, record=False)
    s.apply_index(0)
    got = []
    for cls in (_Counted, _JudgedAgain):
        bot = cls(4, iterations=12)
        i = bot.choose_index(s, s.current_player())
        got.append((i, bot.last_visits, bot.last_values, bot._left, bot.rng.random()))
    assert got[0] == got[1]
    assert _Counted.judged < _JudgedAgain.judged  # some judgements were read again


def test_two_actions_over_the_same_options_make_them_once(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "tails.yaml"
    p.write_text(GAME, encoding="utf-8")
    got = []
    for shared in (True, False):
        if not shared:
            monkeypatch.setattr(flowgen, "_first_options", lambda raw, lines, *a: lines)
        game = rulelang.load(str(p))
        assert ("_kept0 = " in game.generated.dump()) == shared
        for seed in range(3):
            s = game.new_state(None, seed=seed, record=False)
            got.append((shared, s.legal_moves(), s.work_done))
    assert [g[1:] for g in got[:3]] == [g[1:] for g in got[3:]]
    assert all(any(m.startswith("high") for m in g[1]) for g in got)
