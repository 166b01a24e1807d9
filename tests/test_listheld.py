"""Parts of a rules function kept for the rest of a listing (listheld.py): the same moves and
the same work as working them out again, kept only while a listing runs, and only the parts
that read some of the parameters, not all."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
import rulelang.lettail as lettail
import rulelang.listheld as listheld
from rulelang import nodes as N
from rulelang.listheld import kept_parts
from rulelang.parse import parse
from rulelang.runtime import LISTING

GAME = """\
name: Kept
players: {min: 2, max: 2}
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K], suits: [S, H, D, C]}
zones:
  stock: {visibility: hidden, home: true}
  hand: {per_player: true, visibility: owner}
  table: {visibility: public}
functions:
  # group_by(h, ...) reads h alone: kept across the calls for each card of the table
  fits(h, r): '[x[0] for x in group_by(h, c -> c.rank) if x[0].rank == r or size(x) > 1]'
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 6)", "move(top(stock), table)",
          "move(top(stock), table)"]
  settle: {done: pass}
phases:
  play:
    actions:
      give:
        args: {t: "table", c: "[c for c in hand[me] if c in fits(hand[me], t.rank)]"}
        do: move(c, table)
      take:
        args: {t: "table"}
        do: move(t, hand[me])
      stop:
        when: size(table) == 0
        do: end_round('done')
"""


def _play(path: Path) -> list[tuple[list[str], int]]:
    game = rulelang.load(str(path))
    out = []
    for seed in (1, 2):
        s = game.new_state(None, seed=seed, record=False)
        rng = random.Random(seed)
        for _ in range(12):
            if s.is_over() or s.round_over():
                break
            out.append((s.legal_moves(), s.work_done))
            s.apply_index(int(rng.random() * s.num_moves()))
    return out


def test_kept_parts_play_and_charge_as_worked_out_again(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "kept.yaml"
    p.write_text(GAME, encoding="utf-8")
    found = []
    again = listheld._again
    monkeypatch.setattr(listheld, "_again", lambda box: found.append(1) or again(box))
    kept = _play(p)
    assert found  # a kept part was found again
    assert LISTING[0] == 0 and LISTING[1] > 0  # a number per listing, none outside
    monkeypatch.setattr(lettail, "kept_parts", lambda *a: {})
    assert _play(p) == kept  # the same moves, the same work, step by step
    assert any(len(m) > 3 for m, _w in kept)  # (cards were given)


def test_which_parts_are_kept() -> None:
    tree = parse("[x[0] for x in group_by(h, c -> c.rank) if x[0].rank == r]", "expr")
    got = kept_parts(tree, ("h", "r"), {})
    # group_by(h, ...) (reads h alone), not the body (reads both)
    assert list(got.values()) == [("h",)]
    # a part reading a let's name or a loop's variable is not kept; nor one without a loop
    tree = parse("let n = size(h); [c for c in h if count(h, d -> d.rank == c.rank) > n]",
                 "expr")
    assert kept_parts(tree, ("h",), {}) == {}
    tree = parse("size(h) + r", "expr")
    assert kept_parts(tree, ("h", "r"), {}) == {}
    assert isinstance(tree, N.BinOp)
