"""The built-ins' fast paths give what their general paths give, charged the same work.

``combinations`` of a hand-sized list of plain values and ``max``/``min`` of numbers (at run
time, and compiled to Python's own where the checker types every argument as a number) skip
steps of the general path; a recorded game's ``work_done`` must not move because of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.builtins import BUILTINS, _combinations
from rulelang.runtime import WORK, OutOfWork


def _charged(f, *args):  # type: ignore[no-untyped-def]
    WORK[0] = 10**9
    out = f(*args)
    return out, 10**9 - WORK[0]


@pytest.mark.parametrize("n", [0, 1, 3, 5, 7])
def test_combinations_of_a_hand_charge_as_the_general_path(n: int) -> None:
    xs = list(range(10, 10 + n))
    for k in range(n + 2):
        fast = _charged(_combinations, xs, k)
        general = _charged(_combinations, tuple(xs), k)  # a tuple takes the general path
        assert fast == general


def test_combinations_out_of_work_as_before() -> None:
    for xs in ([1, 2, 3, 4], (1, 2, 3, 4)):
        WORK[0] = 5
        with pytest.raises(OutOfWork):
            _combinations(xs, 2)
        assert WORK[0] > 5  # the allowance starts afresh for whoever catches it


def test_max_and_min_of_two_numbers_as_of_a_list() -> None:
    for name in ("max", "min"):
        f = BUILTINS[name].impl
        for a, b in ((1, 1.0), (1.0, 1), (2, 3.5), (-1, -1)):
            out, work = _charged(f, a, b)
            assert out == f([a, b]) and type(out) is type(f([a, b])) and work == 0
        assert _charged(f, "ab", "c")[1] > 0  # texts are still charged


GAME = """\
name: Numbers
players: {min: 2, max: 2}
deck: {ranks: [2, 3], suits: [S]}
zones:
  stock: {visibility: hidden, home: true}
counters:
  c: 0
functions:
  lo(): min(c[0], 1.0, c[1])
  hi(): max(c[0] + 1, 2)
  first(): min(1, 1.0)
round:
  start: [gather(stock)]
  settle: {done: pass}
phases:
  play:
    actions:
      go:
        do: end_round('done')
"""


def test_max_and_min_of_typed_numbers_compile_to_the_same_values(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = rulelang.load(str(path))
    s = game.new_state(2, seed=1, record=False)
    s.ctr[0] = [3, 0.5]
    fn = {k: game.functions[k].fn for k in ("lo", "hi", "first")}
    assert fn["lo"](s) == 0.5 and fn["hi"](s) == 4
    assert type(fn["first"](s)) is int  # the first of equals, as min([1, 1.0])
