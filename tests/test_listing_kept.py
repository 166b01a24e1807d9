"""Calls a legal-move listing keeps (hoist.py): a later argument's call kept per value of the
one argument that varies (``hoist.keyed``), and a rules-function call that several actions'
``when``s make alike kept once per listing (``hoist.SharedCalls``). Either way the moves and
the work counted are those of making the call each time."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.runtime import WORK

GAME = """\
name: Kept
players: {min: 2, max: 3, default: 2}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8], suits: [S, H]}
zones:
  stock: {visibility: hidden, home: true}
  widow: {visibility: public}
  hand: {per_player: true, visibility: owner}
counters:
  score: 0
functions:
  twos(p): "size([c for c in hand[p] if c.rank == '2' or c.rank == '3'])"
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 3)",
          "for i in range(3) { move(top(stock), widow) }"]
  settle: {done: pass}
phases:
  play:
    actions:
      swap:
        args:
          give: "[h for k in range(1, 4) for h in combinations(hand[me], k)]"
          take: combinations(widow, size(give))
        do: "move(take, hand[me]); move(give, widow); score[me] += 1"
        next: end_turn
      low:
        when: twos(me) > 0 and score[me] < 3
        do: score[me] += 2
        next: end_turn
      high:
        when: twos(me) < 2 and score[me] < 5
        do: score[me] += 1
        next: end_turn
      stop:
        when: score[me] >= 3
        do: end_round('done')
"""


def _play(game: Any) -> list[tuple[int, int, tuple[str, ...]]]:
    out = []
    for seed in range(2):
        rng = random.Random(seed)
        s = game.new_state(None, seed=seed, record=False)
        for _ in range(30):
            if s.is_over():
                break
            n = s.num_moves()
            out.append((n, s.work_done, tuple(s.legal_moves())))
            s.apply_index(int(rng.random() * n))
    return out


def _consts(game: Any) -> set[Any]:
    return {v for ph in game.phases.values() for v in ph.legal.__globals__.values()
            if callable(v)}


def test_kept_calls_give_the_moves_and_work_of_calls_made_each_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import rulelang.hoist as hoist

    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    kept = rulelang.load(str(path))
    assert {hoist.keyed, hoist.held_again} <= _consts(kept)
    monkeypatch.setattr(hoist, "listing_keyed_calls", lambda tree, earlier: [])
    monkeypatch.setattr(hoist.SharedCalls, "repeated", lambda self: None)
    path.write_text(GAME + "# again\n", encoding="utf-8")  # (not the cached compilation)
    plain = rulelang.load(str(path))
    assert not {hoist.keyed, hoist.held_again} & _consts(plain)
    assert _play(kept) == _play(plain)


def test_a_kept_value_is_keyed_by_a_number_or_a_text_of_its_own_type() -> None:
    from rulelang.hoist import keyed

    made = []

    def f(xs: list, k: Any) -> list:
        made.append(k)
        WORK[0] -= 5
        return [xs, k]

    F: list = [None]
    w = WORK[0] = 1000
    assert keyed(F, 0, 1, f, "x", 1) == keyed(F, 0, 1, f, "x", 1) == ["x", 1]
    assert WORK[0] == w - 10 and made == [1]  # reused, its work charged again
    for k in (True, 1.0, [1], "1"):  # never the kept value of 1
        assert keyed(F, 0, 1, f, "x", k) == ["x", k]
    assert made == [1, True, 1.0, [1], "1"]
    keyed(F, 0, 1, f, "x", [1])
    assert made[-1] == [1]  # a list is no key: made again



def test_combinations_of_a_zone_are_charged_as_nested_charges_them() -> None:
    from rulelang.runtime import WORK
    from rulelang.walks import nested, nested_flat

    for xs in ([[1, 2], [3], []], [], [[]], [[1, 2, 3]]):
        WORK[0] = 1000
        nested(xs)
        a = WORK[0]
        WORK[0] = 1000
        nested_flat(xs)
        assert WORK[0] == a == 1000 - len(xs) - sum(map(len, xs))
    WORK[0] = 1000
    nested_flat([[1], 5])  # an item with no length: nested() counts it
    assert WORK[0] == 1000 - 3
    game = rulelang.load("thirty-one-banking")  # give: combinations of hand[me]
    assert nested_flat in _consts(game)
