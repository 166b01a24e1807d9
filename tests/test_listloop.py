"""An argument filtered from a zone and a ``when`` that cannot fail listed in one loop, and a
later ``when``'s ``any`` of the same test read from that loop's count (``listloop.py``): the
same moves in the same order as the compiled closures list them, and a failing filter
located at its ``args:`` entry as before."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.errors import RuntimeRulesError

from .test_listing import _reference

GAME = """\
name: Shedding
players: {{min: 2, max: 3, default: 2}}
deck: {{ranks: [2, 3, 4, 5, 6, 7, 8, 9], suits: [S, H]}}
zones:
  stock: {{visibility: hidden, home: true}}
  pile: {{visibility: top}}
  hand: {{per_player: true, visibility: owner}}
functions:
  fits(c): c.suit == top(pile).suit or c.rank == top(pile).rank {extra}
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 3)", "move(top(stock), pile)"]
  triggers:
    out: any(size(hand[p]) == 0 for p in players)
  settle: {{out: pass}}
phases:
  play:
    actions:
      play:
        args: {{c: "[c for c in hand[me] if fits(c)]"}}
        when: c.rank != '8'
        do: move(c, pile)
      eight:
        args: {{c: "[c for c in hand[me] if c.rank == '8']"}}
        do: move(c, pile)
      draw:
        when: size(stock) > 0 and not any(fits(c) for c in hand[me])
        do: move(top(stock), hand[me])
      pass:
        when: size(stock) == 0 and not any(fits(c) for c in hand[me])
"""


def _load(tmp_path: Path, extra: str = "") -> Any:
    path = tmp_path / "g.yaml"
    path.write_text(GAME.format(extra=extra), encoding="utf-8")
    return rulelang.load(str(path))


def test_one_loop_lists_what_the_closures_list(tmp_path: Path) -> None:
    game = _load(tmp_path)
    src = game.phases["play"].legal.__code__.co_varnames  # the loop's count is a local
    assert any(v.startswith("_n") for v in src)
    rng = random.Random(3)
    for seed in range(3):
        s = game.new_state(2, seed=seed, record=False)
        while not s.is_over() and s.decisions < 60:
            listed = game.phases[s.phase].legal(s)
            assert [(a.name, list(args)) for a, args in listed] == _reference(s)
            s.apply_index(rng.randrange(s.num_moves()))


def test_a_failing_filter_is_located_at_its_args_entry(tmp_path: Path) -> None:
    game = _load(tmp_path, "and 1 // (size(pile) - 1) == 1")
    s = game.new_state(2, seed=1, record=False)
    with pytest.raises(RuntimeRulesError) as e:
        s.num_moves()
    assert (e.value.span.line, e.value.span.col) == (19, 19)  # the play action's args:
