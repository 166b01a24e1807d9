"""count/filter/sort/group_by given a written-out lambda are compiled as comprehensions
(``rulelang/lambdaloops.py``), and other lambdas take their argument as a Python parameter
(``codegen.localize``), and ``x in xs`` of a variable charges its search inline
(``scope.inline_search``): the same values, the same errors and the same work as lambdas
that store their argument in the frame, called once per item, searching through charged()."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import calls as calls_mod
from rulelang import codegen
from rulelang import lambdaloops as lambdaloops_mod
from rulelang import operators as operators_mod
from rulelang.errors import RuntimeRulesError
from rulelang.runtime import WORK

GAME_TEXT = """\
name: Loops
players: {min: 2, max: 4, default: 3}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [S, H, D, C], jokers: 2}
zones:
  stock: {visibility: hidden, home: true}
  hand: {per_player: true, visibility: owner}
functions:
  # the hand of seat p and parameters of no declared type, as the rules' own helpers have
  counted(h, r): count(h, c -> c.rank == r or c.suit in ['S', 'H'])
  kept(h, w): filter(h, c -> c.rank in w)
  ordered(h, w): 'sort(sort(h), c -> (if c.rank in w then 0 - c.order else c.suit))'
  by_suit(h): 'sort(h, c -> (if c.suit == none then "Z" else c.suit))'
  grouped(h, w): 'group_by(h, c -> (if c.rank in w then "wild" else c.rank))'
  mixed(h): 'group_by(h, c -> (if c.rank == "2" then 1 else c.rank))'
  clash(h): 'sort(h, c -> (if c.rank == "2" then 1 else c.rank))'
  nested(h): 'count(h, c -> count(h, d -> d.rank == c.rank) > 1)'
  typed(p): 'sort(hand[p], c -> c.order) + filter(hand[p], c -> c.suit == "S")'
  not_list(x): count(x, c -> c > 1)
  hand_of(p): hand[p]
  paired(h): 'sort(h, c -> (if any(h, d -> d.rank == c.rank and d != c) then 0 else 1))'
  deep(h): 'max(h, c -> {deep})'
  pairs(h): '[[c, d] for c in h for d in h if c.order < d.order and c.suit == d.suit]'
  inner(h): '[count([d for d in h if d.rank == c.rank]) for c in h]'
  deep_each(h): '[{deep} for c in h if c.order > 2]'
  low(h): lowest(h, c -> c.order % 4)
  high(h): 'highest(h, c -> (if c.rank == "2" then 1 else c.rank))'
  # sort's desc: written out (the lambda untyped, as the built-in's); any/all over numbers
  down(h): 'sort(group_by(h, c -> c.suit), g -> size(g) * 100 + g[0].order, desc: true)'
  down_clash(h): 'sort(h, c -> (if c.rank == "2" then 1 else c.rank), desc: true)'
  runs(h): '[c.order for c in h if all((c.order + i) in [d.order for d in h] for i in [1, 2])]'
  near(h, n): 'any(n - i in [c.order for c in h] for i in [0, 1, 2]) or any(false for i in [1])'
  truthy(h): 'all(size(h) - i for i in [3, 9]) or any(size(h) - i for i in [9, 9])'
  # the items their own keys (x -> x: no copy of them made)
  same(h): 'group_by([c.order for c in h], v -> v) + [sort(h, c -> c)]'
  # grouped by a card's text read from its table (lambdaloops.grouped_texts)
  by_rank(p): group_by(hand[p], c -> c.rank)
  by_rank_sized(p): 'sum(size(g) * size(g) for g in group_by(hand[p], c -> c.rank))'
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 9)"]
  settle: {done: pass}
phases:
  play:
    actions:
      go:
        do: end_round('done')
"""
# a lambda body too deep to be inlined (limits.MAX_INLINE_DEPTH): a closure handed the frame
DEEP = " + ".join(["c.order"] * 30)
GAME = GAME_TEXT.replace("{deep}", DEEP)

CALLS: list[tuple[str, Any]] = [
    ("counted", lambda h: (h, "7")), ("kept", lambda h: (h, ["2", "A"])),
    ("ordered", lambda h: (h, ["2", "JK"])), ("by_suit", lambda h: (h,)),
    ("grouped", lambda h: (h, ["2", "A"])), ("mixed", lambda h: (h,)),
    ("clash", lambda h: (h,)), ("nested", lambda h: (h,)), ("typed", lambda h: (0,)),
    ("not_list", lambda h: (5,)), ("not_list", lambda h: ("abc",)),
    ("paired", lambda h: (h,)), ("deep", lambda h: (h,)), ("pairs", lambda h: (h,)),
    ("inner", lambda h: (h,)), ("deep_each", lambda h: (h,)),
    ("low", lambda h: (h,)), ("high", lambda h: (h,)), ("low", lambda h: ([],)),
    ("down", lambda h: (h,)), ("down_clash", lambda h: (h,)), ("runs", lambda h: (h,)),
    ("near", lambda h: (h, 5)), ("near", lambda h: (h, 40)), ("truthy", lambda h: (h,)),
    ("truthy", lambda h: (h[:3],)), ("same", lambda h: (h,)), ("same", lambda h: ([[1], 2],)),
    # the second call of the same cards is answered from grouped_texts's last answer
    ("by_rank", lambda h: (1,)), ("by_rank", lambda h: (1,)), ("by_rank_sized", lambda h: (1,)),
    ("by_rank", lambda h: (2,)),
]


def _run(game: Any, s: Any, name: str, args: tuple) -> tuple[Any, int]:
    """The value (or error text) of a call and the work it charged."""
    WORK[0] = 10**9
    try:
        v: Any = game.functions[name].fn(s, *args)
    except RuntimeRulesError as e:
        v = ("error", str(e))
    return v, 10**9 - WORK[0]


def test_looped_calls_give_what_the_built_ins_give(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    looped = rulelang.load(str(path))
    src = looped.functions["counted"].fn
    # the built-ins, calling lambdas that store their argument in the frame
    monkeypatch.setattr(calls_mod, "LOOPED", frozenset())
    monkeypatch.setattr(codegen, "LOCALS", False)
    monkeypatch.setattr(operators_mod, "inline_search", lambda f: False)  # charged(xs) calls
    monkeypatch.setattr(calls_mod, "MAX_UNROLLED", 0)  # any/all over numbers: generators
    called = rulelang.load(str(path))
    assert called.functions["counted"].fn is not src
    errors = 0
    for seed in range(8):
        s1 = looped.new_state(3, seed=seed, record=False)
        s2 = called.new_state(3, seed=seed, record=False)
        for p in range(3):
            h = looped.functions["hand_of"].fn(s1, p)
            for name, args in CALLS:
                a = args(h)
                got, want = _run(looped, s1, name, a), _run(called, s2, name, a)
                assert got == want, (name, seed, p)
                errors += isinstance(got[0], tuple)
    assert errors  # the error cases were reached (keys that cannot be compared, not a list)


def test_a_lambda_becomes_a_comprehension(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    dump = rulelang.load(str(path)).generated.dump()
    body = dump[dump.index("counted(h, r)"):dump.index("kept(h, w)")]
    assert "lambda _v" not in body and re.search(r"for _v\d+ in", body)


def test_a_lambda_takes_its_argument_as_a_parameter_unless_the_frame_is_handed_on(
        tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    dump = rulelang.load(str(path)).generated.dump()
    paired = dump[dump.index("paired(h)"):dump.index("deep(h)")]
    # (any(h, d -> ...) is a generator over a local now, as count's comprehension is)
    assert re.search(r"for _v\d+ in ", paired) and "_v)" not in paired
    deep = dump[dump.index("deep(h)"):dump.index("pairs(h)")]
    assert "(S, F)" in deep and "F.__setitem__" in deep  # too deep to inline: stored
    pairs = dump[dump.index("pairs(h)"):dump.index("inner(h)")]
    assert re.search(r"for _v\d+ in .* for _v\d+ in", pairs)  # loop variables as locals
    deep = dump[dump.index("deep_each(h)"):]
    assert "(S, F)" in deep and re.search(r"for F\[\d+\] in", deep)


def test_cards_grouped_by_a_text_of_theirs_are_grouped_without_keys(tmp_path: Path) -> None:
    """``group_by(h, c -> c.rank)`` groups by each card's place in the sorted texts
    (``grouped_texts``): the groups of ``builtins.grouped``, charged alike, running out of work
    where it does, and a group changed by its taker does not change the next answer."""
    from rulelang.builtins import grouped

    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = rulelang.load(str(path))
    dump = game.generated.dump()
    assert "grouped_texts" in dump[dump.index("by_rank(p)"):dump.index("by_rank_sized(p)")]
    assert "mul_values" not in dump[dump.index("by_rank_sized(p)"):]  # size(g) * size(g)
    s = game.new_state(3, seed=2, record=False)
    h = game.functions["hand_of"].fn(s, 0)
    ranks = game.functions["by_rank"].fn
    want = grouped(h, [game.tables.rank[c] for c in h])
    first, work = _run(game, s, "by_rank", (0,))
    assert first == want and work > 1
    first[0].append(999)  # as meld() may move a group's list itself
    assert _run(game, s, "by_rank", (0,)) == (want, work)
    h.append(h.pop(0))  # other cards (an order of them): grouped anew
    assert _run(game, s, "by_rank", (0,))[0] == grouped(h, [game.tables.rank[c] for c in h])
    for allowance in (work - 1, 1):
        WORK[0] = allowance
        with pytest.raises(RuntimeRulesError):
            ranks(s, 0)


def test_a_search_charged_inline_runs_out_of_work_as_charged_did(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = rulelang.load(str(path))
    s = game.new_state(3, seed=1, record=False)
    h = game.functions["hand_of"].fn(s, 0)
    wild = ["2"] * 50
    _, full = _run(game, s, "kept", (h, wild))
    assert full >= 9 * 50  # each card's search of the 50 wild ranks
    WORK[0] = full - 40
    with pytest.raises(RuntimeRulesError, match="looped more than"):
        game.functions["kept"].fn(s, h, wild)


def test_card_keys_are_read_from_a_table_per_closure_value(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sort/group_by key that reads its item as a card and calls something (``c.rank in
    w``) is answered per card and closure value from a table (``cardtables.keyed``): the
    same keys, errors and work as the comprehension, whatever was read before."""
    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    game = rulelang.load(str(path))
    dump = game.generated.dump()
    assert "(lambda _v" in dump[dump.index("ordered(h, w)"):dump.index("by_suit(h)")]
    monkeypatch.setattr(lambdaloops_mod, "_tabled", lambda *a: None)
    plain = rulelang.load(str(path))
    s1, s2 = game.new_state(3, seed=4, record=False), plain.new_state(3, seed=4, record=False)
    h = game.functions["hand_of"].fn(s1, 1)
    for _ in range(2):  # the second time, every card's key is read from its table
        for w in (["2"], ["A", "K", "2"], [], [["2"]], ["2"]):
            for xs in (h, h[:3] + [1000], [5, 0, 53]):
                for name in ("ordered", "grouped"):
                    assert _run(game, s1, name, (xs, w)) == _run(plain, s2, name, (xs, w))


@pytest.mark.parametrize("xs", [[[3, 1], [2], []], [[1.5, None], [True]], [[1], [[2]]],
                                [[1], "ab"], [[1, "x"]]])
def test_lists_of_numbers_compared_charge_and_run_out_as_item_by_item(xs: Any) -> None:
    # builtins.compared of lists of numbers charges walks.flat_lists' sum at once
    from rulelang import builtins as b
    from rulelang.walks import FLAT

    def run(f: Any, allowance: int) -> tuple[bool, int]:
        WORK[0] = allowance
        try:
            f()
        except RuntimeRulesError:
            return False, WORK[0]
        return True, WORK[0]

    def one_by_one() -> None:
        for x in xs:
            if type(x) not in FLAT:
                b.charge(3 * b.deep_items(x))

    for allowance in range(0, 25):
        assert run(lambda: b.compared(xs, 3), allowance) == run(one_by_one, allowance)
