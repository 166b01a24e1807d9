"""Cards put into groups by an attribute (cardgroups.py): ``[[c for c in cs if c.suit == s]
for s in suits]`` compiled as one pass gives the same lists, work and errors as the loops
written out (the same rules compiled with the pattern turned off)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import comprehensions
from rulelang.errors import RulesError
from rulelang.runtime import WORK

GAME = """\
name: Groups
players: {min: 2, max: 4, default: 2}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [S, H, D, C]}
zones:
  stock: {visibility: hidden, home: true}
  hand: {per_player: true, visibility: owner}
functions:
  by_suit(cs): "[[c for c in cs if c.suit == s] for s in suits]"
  by_rank(cs): "[[c for c in cs if r == c.rank] for r in ['A', 'K', 'A']]"
  by_order(cs): "[[c for c in cs if c.order == k] for k in [12, 0]]"
  none_of(cs): "[[c for c in cs if c.suit == s] for s in []]"
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 3)"]
  settle: {done: pass}
phases:
  play:
    actions:
      go:
        do: end_round('done')
"""


def _games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    fast = rulelang.load(str(path))
    monkeypatch.setattr(comprehensions, "grouping", lambda n: None)
    path = tmp_path / "h.yaml"  # (another file: nothing remembered from the first load)
    path.write_text(GAME + "# written out\n", encoding="utf-8")
    return fast, rulelang.load(str(path))


def test_groups_by_an_attribute_are_the_loops_written_out(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _games(tmp_path, monkeypatch)
    assert "card_groups" in fast.generated.dump()
    assert "card_groups" not in slow.generated.dump()
    cards = [51, 0, 4, 13, 48, 50, 12]
    inputs = [cards, [], [3, {"suit": "S", "rank": "A", "order": 12}], [1, {"suit": [1]}],
              [2, 60], [True], [{"rank": "A"}], 5, "AS"]
    _same(fast, slow, [(name, inputs) for name in ("by_suit", "by_rank", "by_order", "none_of")],
          (0, 3, 9, 20, 40, 1000))


def _same(fast: Any, slow: Any, cases: list[tuple[str, list]], allowances: tuple) -> None:
    """Each function of ``cases`` gives the same result (or error) and leaves the same work
    in both games, for each argument and work allowance."""
    s = fast.new_state(None, seed=1, record=False)

    def run(game: Any, name: str, arg: Any, allowance: int) -> tuple[Any, int]:
        WORK[0] = allowance
        try:
            out: Any = game.functions[name].fn(s, arg)
        except RulesError as e:
            out = (type(e).__name__, str(e), e.span.line, e.span.col)
        return out, WORK[0]

    for name, args in cases:
        for arg in args:
            for allowance in allowances:
                assert run(fast, name, arg, allowance) == run(slow, name, arg, allowance), \
                    (name, arg, allowance)


SUMS = GAME.replace("functions:\n", """\
values: {pts: {2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: -3, 8: 8, 9: 9, T: 10, J: 10, Q: 10, K: 10, A: 11}}
functions:
  best(cs): "max(sum(pts[c.rank] for c in cs if c.suit == s) for s in suits)"
  ords(cs): "[sum(c.order for c in cs if s == c.suit) for s in ['H', 'S']]"
  pts_of(cs): "[sum(pts[c.rank] for c in cs if s == c.suit) for s in ['D', 'S']]"
  ords2(p): "let cs = hand[p]; [sum(c.order for c in cs if s == c.suit) for s in ['H', 'S']]"
""")


def test_sums_by_an_attribute_are_the_loops_written_out(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "g.yaml").write_text(SUMS, encoding="utf-8")
    fast = rulelang.load(str(tmp_path / "g.yaml"))
    monkeypatch.setattr(comprehensions, "card_sums_call", lambda *a: None)
    (tmp_path / "h.yaml").write_text(SUMS + "# written out\n", encoding="utf-8")
    slow = rulelang.load(str(tmp_path / "h.yaml"))
    # (not ords: its untyped list's c.order is charged by nested() as written)
    assert fast.generated.dump().count("<function card_sums>") == 3
    assert "card_sums" not in slow.generated.dump()
    inputs = [[51, 0, 4, 13, 48, 50, 12, 20], [], [3, {"suit": "S", "rank": "A", "order": 12}],
              [2, 60], [True], [-1], 5, "AS", [0.0]]
    _same(fast, slow, [("best", inputs), ("ords", inputs), ("pts_of", inputs),
                       ("ords2", [0, 1, 5, "x"])], (0, 3, 6, 9, 20, 1000))


def test_sums_packed_in_one_number_are_the_loops_written_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No card's value negative: the sums are the bytes of one number summed in C (up to
    255 // the highest value cards), ``max``/``min`` of them picked there (in the function
    itself where that is its body); longer lists, and anything that is no card (``true``,
    ``0.0``, -1, 52), the loops' results and errors."""
    game = SUMS.replace("7: -3", "7: 7").replace(
        "  ords2(p)", "  worst(cs): min(sum(pts[c.rank] for c in cs if c.suit == s) for s in "
                      "suits)\n  ords2(p)")
    (tmp_path / "g.yaml").write_text(game, encoding="utf-8")
    fast = rulelang.load(str(tmp_path / "g.yaml"))
    monkeypatch.setattr(comprehensions, "card_sums_call", lambda *a: None)
    (tmp_path / "h.yaml").write_text(game + "# written out\n", encoding="utf-8")
    slow = rulelang.load(str(tmp_path / "h.yaml"))
    dump = fast.generated.dump()
    assert dump.count("<function card_sums>") == 4 and "<function min>" in dump
    # best and worst: summed in place (functions.install), each twice: the key's and the sums'
    # charges in one subtraction, and one after the other where the allowance may run out
    assert dump.count("_tot = -1") == 4
    inputs = [[51, 0, 4, 13, 48, 50, 12, 20], [], [51] * 23, [51] * 24, [0] * 200,
              list(range(52)), [3, 0.0], [True, 1], [1, -1], [0, 52], [2, 60], 5, "AS"]
    # (8 cards: 9 for the key and the call, 36 for the sums: 45 in all)
    _same(fast, slow, [(name, inputs) for name in ("best", "worst", "ords", "pts_of")],
          (0, 3, 6, 9, 20, 44, 45, 46, 119, 120, 1000))
