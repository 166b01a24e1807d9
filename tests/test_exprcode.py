"""Cheaper generated code for expressions keeps their meaning: constants of the compiled game
worked out once (operators.py), a parameter given ``me`` or a constant read in place, loops
over ``range(n)`` charged as before, items and record fields of a local read inline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import runtime
from rulelang.builtins import _range
from rulelang.errors import RulesErrors, RuntimeRulesError
from rulelang.scope import concat, concat_cards, work_range

GAME = """\
name: Exprs
players: {min: 2, max: 4, default: 3}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [S, H, D, C]}
options:
  mode: {default: plain, choices: [plain, fancy]}
  cap: {default: 4, min: 0, max: 9}
zones:
  stock: {visibility: hidden, home: true}
  hand: {per_player: true, visibility: owner}
counters:
  c: 0
functions:
FUNCTIONS
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 3)"]
  settle: {done: pass}
phases:
  play:
    actions:
      go:
        when: WHEN
        do: end_round('done')
      wait:
        do: pass
"""


def _load(tmp_path: Path, functions: str, when: str = "c[me] == 0") -> Any:
    path = tmp_path / "g.yaml"
    path.write_text(GAME.replace("FUNCTIONS", functions).replace("WHEN", when),
                    encoding="utf-8")
    return rulelang.load(str(path))


def test_constants_of_the_game_are_worked_out_with_the_same_values(tmp_path: Path) -> None:
    game = _load(tmp_path, """\
  a(p): (opt.cap == 0) or c[p]
  b(p): opt.mode == 'plain' and c[p]
  d(p): if opt.mode == 'fancy' then 10 // c[p] else 7
  e(p): not (opt.cap < 3) and (true or 10 // c[p] > 0)
  f(p): c[p] > 0 and false and 10 // c[p] > 0
  g(p): 1 < opt.cap <= 4
""", "d(me) == 7 and not f(me)")
    s = game.new_state(None, seed=1, record=False)
    fns = game.functions
    assert fns["a"].fn(s, 0) == 0 and fns["a"].fn(s, 0) is not False  # (false or x) is x
    assert fns["b"].fn(s, 0) == 0
    assert fns["d"].fn(s, 0) == 7  # the branch not taken is never run (c is 0)
    assert fns["e"].fn(s, 0) is True and fns["f"].fn(s, 0) is False
    assert fns["g"].fn(s, 0) is True
    assert "go" in s.legal_moves()
    dump = game.generated.dump()
    assert "'plain' ==" not in dump and "(4 == 0)" not in dump and "(True or" not in dump


def test_a_branch_worked_out_away_is_still_checked(tmp_path: Path) -> None:
    with pytest.raises(RulesErrors, match="unknown name 'nosuch'"):
        _load(tmp_path, "  a(p): if opt.cap == 4 then c[p] else nosuch\n")


def test_a_parameter_given_me_or_a_constant_reads_it_in_place(tmp_path: Path) -> None:
    game = _load(tmp_path, "  sized(p): size(hand[p]) > 2 and c[p] == 0\n", "sized(me)")
    dump = game.generated.dump()
    assert "S.zones[1 + S.actor]" in dump and "S.actor) or" not in dump
    assert "go" in game.new_state(None, seed=1, record=False).legal_moves()
    # a constant that is no seat is still checked where it is used, with the same error
    game = _load(tmp_path, "  sized(p): size(hand[p]) > 2\n", "c[me] == 0 or sized(9)")
    s = game.new_state(None, seed=1, record=False)
    s.ctr[0][s.actor] = 1
    s._entries = s._legal = s._legal_list = None
    with pytest.raises(RuntimeRulesError, match="no seat 9"):
        s.legal_moves()


@pytest.mark.parametrize("n", [0, 3, 15, 16, 40, -1, 2.5, None, "x", 10**9])
def test_a_loop_over_a_range_charges_and_fails_as_before(n: Any) -> None:
    def run(f: Any, left: int = 100) -> tuple[Any, int]:
        runtime.WORK[0] = runtime.LIMIT[0] = left
        try:
            out: Any = list(f())
        except RuntimeRulesError as e:
            out = (str(e), e.span)
        return out, runtime.WORK[0]

    assert run(lambda: work_range(n, None)) == run(lambda: runtime.work(_range(n), None))
    # out of work in the range's charge, in the loop's, exactly enough for both
    for left in (3, 5, 8):
        assert run(lambda: work_range(4, "here"), left) == \
            run(lambda: runtime.work(_range(4), "here"), left)


def test_items_and_fields_of_a_local_fail_as_before(tmp_path: Path) -> None:
    game = _load(tmp_path, "  second(xs): xs[1]\n", "second([5]) == 5")
    with pytest.raises(RuntimeRulesError, match="index 1 is out of range"):
        game.new_state(None, seed=1, record=False).legal_moves()
    game = _load(tmp_path, "  rec(p): \"any([{a: 1}], r -> r.b == 1)\"\n", "rec(me)")
    with pytest.raises(RuntimeRulesError, match="no field 'b'"):
        game.new_state(None, seed=1, record=False).legal_moves()
    game = _load(tmp_path, "  rec(p): \"any([{a: 1}], r -> r.a == 1 + c[p])\"\n", "rec(me)")
    assert "go" in game.new_state(None, seed=1, record=False).legal_moves()


@pytest.mark.parametrize(("expr", "error"), [
    ("f([{a: 1}, {a: 2}], 1) == 2", None),
    ("f([{a: 1}], -1) == 1", None),
    ("f([{a: 1}], 3) == 1", "index 3 is out of range"),
    ("f([{b: 1}], 0) == 1", "no field 'a'"),
    ("f([7], 0) == 1", "cannot take '.a'"),
    ("f([{a: 1}], 'x') == 1", "cannot index"),
])
def test_a_field_of_an_item_of_a_list_reads_and_fails_as_before(
        tmp_path: Path, expr: str, error: str | None) -> None:
    game = _load(tmp_path, "  f(xs, i): xs[i].a\n", f'"{expr}"')
    assert "<function field>" in game.generated.dump()  # one call (scope.item_field)
    s = game.new_state(None, seed=1, record=False)
    if error is None:
        assert "go" in s.legal_moves()
    else:
        with pytest.raises(RuntimeRulesError, match=error):
            s.legal_moves()


def test_a_loop_over_the_seats_indexes_unchecked_unless_its_name_is_bound_again(
        tmp_path: Path) -> None:
    game = _load(tmp_path, "  n(p): size(hand[p])\n", "c[me] == 0")
    path = tmp_path / "g.yaml"
    text = path.read_text(encoding="utf-8")
    for body, seat_checks in (("for p in seats { c[p] = size(hand[p]) }", 0),
                              ("for p in seats { p = 7; c[0] = size(hand[p]) }", 1)):
        path.write_text(text.replace("do: end_round('done')", f'do: "{body}"'), encoding="utf-8")
        game = rulelang.load(str(path))
        step = next(b for b in game.generated.dump().split("# ---- ") if "for F[" in b
                    and "in seats" in b)
        assert step.count("else _seat(") == seat_checks
        s = game.new_state(None, seed=1, record=False)
        if seat_checks:
            with pytest.raises(RuntimeRulesError, match="no seat 7"):
                s.apply("go")
        else:
            s.apply("go")
            assert s.ctr[0] == [3] * s.n


@pytest.mark.parametrize(("x", "y", "left"), [([1, 2], [3], 100), ([], [], 100), ([1, 2], [3], 2)])
def test_a_sum_of_zones_is_charged_and_fails_as_a_sum_of_lists(tmp_path: Path, x: list, y: list,
                                                             left: int) -> None:
    def run(f: Any) -> tuple[Any, int]:
        runtime.WORK[0] = runtime.LIMIT[0] = left
        try:
            out: Any = f()
        except RuntimeRulesError as e:
            out = str(e)
        return out, runtime.WORK[0]

    assert run(lambda: concat_cards(x, y)) == run(lambda: concat(x, y))
    game = _load(tmp_path, "  n(p): size(hand[p] + stock + hand[p]) + size(hand[p] + [1])\n",
                 "n(me) == 53")  # 3 + 43 + 3, 3 + 1
    block = game.generated.dump().split("# ---- ")[1]
    assert "<function concat_cards>" in block and "<function concat>" in block  # [1]: a list
    assert "go" in game.new_state(None, seed=1, record=False).legal_moves()
