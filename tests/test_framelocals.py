"""A generated function's frame as Python locals (framelocals.py): ``let``s, parameters and
loop variables read and stored as locals play the same games, with the same work, as the frame
list did; a ``let`` whose value is false (0, [], none) is kept all the same; where Python
refuses an assignment expression (a comprehension's iterable) the frame stays."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang import framelocals
from rulelang.framelocals import frame_locals
from rulelang.runtime import WORK

from .helpers import fresh_load

GAME = """\
name: Locals
players: {min: 2, max: 4, default: 2}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [S, H, D, C]}
zones:
  stock: {visibility: hidden, home: true}
  hand: {per_player: true, visibility: owner}
functions:
  falsy(x): "let a = 0; let b = []; let c = none; [a, b, c, x, a + x]"
  inside(xs): "[y + 1 for y in (let z = xs; z + z)]"
  both(xs): "let n = size(xs); [v * n for v in inside(xs)] + falsy(n)"
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 3)"]
  settle: {done: pass}
phases:
  play:
    actions:
      go:
        do: end_round('done')
"""


def test_the_frame_becomes_locals_where_nothing_hands_it_on() -> None:
    src = "(F.__setitem__(2, f(a, F[0])) or (F[2] if F[2] else F[1]))"
    assert frame_locals(src, 1) == ("(((_f2 := f(a, a0)) and None) or (_f2 if _f2 else _f1))",
                                    [1, 2])
    assert frame_locals("g(S, F)", 0) is None  # a closure given the whole frame
    assert frame_locals("(lambda _v: F.__setitem__(3, _v) or F[3])", 0) is None


def test_false_lets_and_a_let_in_an_iterable_keep_their_values(tmp_path: Path) -> None:
    path = tmp_path / "locals.yaml"
    path.write_text(GAME)
    game = rulelang.load(str(path))
    s = game.new_state(None, seed=1, record=False)
    WORK[0] = 10**6
    assert game.functions["falsy"].fn(s, 5) == [0, [], None, 5, 5]
    assert game.functions["inside"].fn(s, [1, 2]) == [2, 3, 2, 3]
    assert game.functions["both"].fn(s, [1, 2]) == [4, 6, 4, 6, 0, [], None, 2, 2]
    src = "\n".join(text for text, _span in game.generated.sources)
    assert "(_f" in src and ":= " in src


@pytest.mark.parametrize("name", ["texas-holdem"])
def test_frame_locals_play_the_same(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same moves, work and results with the frame as locals as with the frame list."""
    fast = fresh_load(name)  # (rulelang.load would give the run's one compilation twice)
    monkeypatch.setattr(framelocals, "ENABLED", False)
    slow = fresh_load(name)
    assert "(_f" in "\n".join(t for t, _ in fast.generated.sources)
    assert "(_f" not in "\n".join(t for t, _ in slow.generated.sources)
    for seed in range(2):
        a = fast.new_state(None, seed=seed, record=False)
        b = slow.new_state(None, seed=seed, record=False)
        rng = random.Random(seed)
        for _ in range(120):
            if a.is_over():
                break
            assert a.num_moves() == b.num_moves() and a.work_done == b.work_done
            i = int(rng.random() * a.num_moves())
            a.apply_index(i)
            b.apply_index(i)
        assert a.result() == b.result() and a.work_done == b.work_done
