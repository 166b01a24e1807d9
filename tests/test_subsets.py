"""Counts of subsets by their sums or by their pairs' values (``rulelang/subsets.py``): the
same counts, the same errors and the same work as the comprehensions written out, and the
shapes it takes are the ones compiled without making the subsets."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang import lambdaloops
from rulelang.errors import RuntimeRulesError
from rulelang.runtime import WORK

from .test_lambdaloops import _run  # a call's value (or error) and the work it charged

GAME = """\
name: Subsets
players: {min: 2, max: 2}
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K], suits: [S, H, D, C]}
values:
  pips: {A: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 10, Q: 10, K: 10}
zones:
  stock: {visibility: hidden, home: true}
  hand: {per_player: true, visibility: owner}
functions:
  fifteens(cs): >-
    sum(count(combinations(cs, k), x -> sum(pips[c.rank] for c in x) == 15) for k in range(0, 7))
  under(cs, n, k): count(combinations(cs, k), x -> sum(pips[c.rank] for c in x) < n)
  pairs(cs): count(combinations(cs, 2), x -> x[0].rank == x[1].rank)
  rising(cs): count(combinations(cs, 2), x -> pips[x[0].rank] < pips[x[1].rank])
  three(cs): count(combinations(cs, 3), x -> x[0].suit != x[1].suit)
  hand_of(p): hand[p]
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 6)"]
  settle: {done: pass}
phases:
  play:
    actions:
      go:
        do: end_round('done')
"""


def test_subset_counts_give_what_the_comprehensions_give(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    fast = rulelang.load(str(path))
    dump = fast.generated.dump()
    assert dump.count("count_sums") >= 2 and dump.count("count_pairs") >= 2
    monkeypatch.setattr(lambdaloops, "subset_count", lambda *a: None)
    slow = rulelang.load(str(path))
    assert "count_sums" not in slow.generated.dump()
    s1 = fast.new_state(None, seed=3, record=False)
    s2 = slow.new_state(None, seed=3, record=False)
    h = fast.functions["hand_of"].fn(s1, 0)
    hands = [h, h[:1], [], [0, 4, 8, 12, 16], [0, 1, 2, 3, 51], [[0, 1], [2, 3]], 5]
    calls = [(name, (x,)) for x in hands for name in ("fifteens", "pairs", "rising", "three")]
    calls += [("under", (x, n, k)) for x in hands[:4] for n in (10, 40)
              for k in (0, 1, 2, 3, 9, -1, "2")]
    errors = 0
    for name, args in calls:
        got, want = _run(fast, s1, name, args), _run(slow, s2, name, args)
        assert got == want, (name, args)
        errors += isinstance(got[0], tuple)
    assert errors  # the error cases were reached (a list of lists, not a list, a bad size)


def test_a_subset_count_runs_out_of_work_as_the_comprehension_does(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = rulelang.load(str(path))
    s = game.new_state(None, seed=1, record=False)
    h = list(range(0, 40, 3))
    _, full = _run(game, s, "fifteens", (h,))
    WORK[0] = full
    game.functions["fifteens"].fn(s, h)
    WORK[0] = full - 1
    with pytest.raises(RuntimeRulesError, match="looped more than"):
        game.functions["fifteens"].fn(s, h)
