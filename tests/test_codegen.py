"""The generated code keeps the rules' meaning: conditions written out as statements (``and``,
``or``, ``any``/``all`` loops in a trigger or a ``when``), small functions compiled into the rule
that calls them, and seat checks left out only where a variable loops over the seats in play.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulelang
from rulelang.errors import RuntimeRulesError

GAME = """\
name: Codegen
players: {{min: 2, max: 5, default: 4}}
deck: {{ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [S, H, D, C]}}
zones:
  stock: {{visibility: hidden, home: true}}
  hand: {{per_player: true, visibility: owner}}
counters:
  c: 0
functions:
  low(p): c[p] < 2
  big(p): size(hand[p]) > 2 and c[p] >= 1
  either(p, q): low(p) or big(q)
  value(): {expr}
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 3)"]
  settle: {{done: pass}}
phases:
  play:
    actions:
      go:
        when: {expr}
        do: end_round('done')
      wait:
        do: pass
"""

ATOMS = ["c[me] > 1", "low(me)", "big(turn)", "either(me, dealer)", "true", "false",
         "size(hand[me]) == 3", "c[dealer] == c[turn]", "none"]


def _expr(depth: int, rng: random.Random) -> str:
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(ATOMS)
    kind = rng.randrange(6)
    if kind == 0:
        return f"({_expr(depth - 1, rng)} and {_expr(depth - 1, rng)})"
    if kind == 1:
        return f"({_expr(depth - 1, rng)} or {_expr(depth - 1, rng)} or {_expr(depth - 1, rng)})"
    if kind == 2:
        return f"not ({_expr(depth - 1, rng)})"
    fn = "any" if kind in (3, 4) else "all"
    over = rng.choice(["players", "seats", "[0, 1]", "[]"])
    body = rng.choice(["c[p] > 0", "low(p)", "big(p) or c[p] == 3", "either(p, me)",
                       _expr(depth - 1, rng)])
    cond = rng.choice(["", " if c[p] != 1", " if low(p)"])
    return f"{fn}({body} for p in {over}{cond})"


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10**9))
def test_a_when_agrees_with_the_same_expression_as_a_value(tmp_path: Path, seed: int) -> None:
    # the action's when runs as statements with the functions inlined; the function value()
    # is the same text compiled as one Python expression and called
    rng = random.Random(seed)
    expr = f"{_expr(3, rng)} or c[me] == 99"  # (a when that is literally false is refused)
    path = tmp_path / "g.yaml"
    path.write_text(GAME.format(expr=f'"{expr}"'), encoding="utf-8")
    game = rulelang.load(str(path))
    value = game.functions["value"].fn
    for k in range(12):
        s = game.new_state(rng.randrange(2, 6), seed=k, record=False)
        s.ctr[0] = [rng.randrange(4) for _ in range(s.n)]
        for p in rng.sample(range(s.n), rng.randrange(s.n - 1)):
            s.fx_eliminate(p)
        s._entries = s._legal = s._legal_list = None
        assert ("go" in s.legal_moves()) == bool(value(s)), (expr, s.ctr[0], s.seated)


def _game(tmp_path: Path, functions: str, trigger: str) -> Any:
    round_end = (f"  triggers:\n    t: {trigger}\n  settle: {{done: pass, t: pass}}\n"
                 "match: {over: round >= 1}\n")  # a trigger true on the deal ends the match
    text = GAME.format(expr="true").replace("  value(): true\n", functions).replace(
        "  settle: {done: pass}\n", round_end)
    path = tmp_path / "g.yaml"
    path.write_text(text, encoding="utf-8")
    return rulelang.load(str(path))


def test_an_error_in_an_inlined_function_is_located_at_the_rule_that_calls_it(
        tmp_path: Path) -> None:
    game = _game(tmp_path, "  ratio(p): 10 // (c[p] - c[p])\n", "ratio(me) > 1")
    with pytest.raises(RuntimeRulesError) as e:
        game.new_state(4, seed=1, record=False)
    assert "division by zero" in str(e.value)
    line = e.value.span.line
    assert "t: ratio(me) > 1" in (tmp_path / "g.yaml").read_text().splitlines()[line - 1]


def test_a_seat_out_of_a_list_is_still_checked(tmp_path: Path) -> None:
    # a variable over players needs no check; one over any other list still gets it
    game = _game(tmp_path, "  sized(p): size(hand[p]) > 3\n",
                 "any(sized(p) for p in [0, 9])")
    with pytest.raises(RuntimeRulesError, match="no seat 9"):
        game.new_state(4, seed=1, record=False)
    game = _game(tmp_path, "  sized(p): size(hand[p]) > 3\n",
                 "any(sized(p) for p in players)")
    s = game.new_state(4, seed=1, record=False)
    assert s.status == "play"


def test_deeply_nested_calls_are_inlined_only_so_far(tmp_path: Path) -> None:
    chain = "".join(f"  f{i}(p): f{i + 1}(p) and c[p] == 0\n" for i in range(8))
    game = _game(tmp_path, chain + "  f8(p): size(hand[p]) == 3\n",
                 "all(f0(p) for p in players)")
    s = game.new_state(3, seed=1, record=False)
    assert s.ended_by == "t"  # every hand has 3 cards and every c is 0
    assert game.functions["f0"].fn(s, 0) is True


def _fan_out(tmp_path: Path, trigger: str) -> Any:
    # each function calls the next 40 times: 40**6 calls of the last
    fns = "".join(f"  f{i}(p): {' + '.join([f'f{i + 1}(p)'] * 40)} + c[p]\n" for i in range(6))
    return _game(tmp_path, fns + "  f6(p): c[p] + size(hand[p])\n", trigger)


def test_inlining_is_bounded_however_the_functions_call_each_other(tmp_path: Path) -> None:
    # inlining everything would copy the last body 40**4 times (it took 48 s to check before
    # inlining had a budget)
    t = time.process_time()
    game = _fan_out(tmp_path, "round > 99 and f0(me) > 0")
    assert time.process_time() - t < 5.0
    assert game.new_state(3, seed=1, record=False).status == "play"


def test_calls_of_functions_count_against_the_work_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 40**6 calls without a loop: each call takes one from the step's allowance
    from rulelang import engine

    monkeypatch.setattr(engine, "MAX_WORK", 100_000)
    game = _fan_out(tmp_path, "f0(me) > 0")
    t = time.process_time()
    with pytest.raises(RuntimeRulesError, match="counting function calls"):
        game.new_state(3, seed=1, record=False)
    assert time.process_time() - t < 5.0


def test_the_memo_keeps_small_keys_and_bounds_its_size() -> None:
    from rulelang import limits
    from rulelang.memo import memo

    calls = []

    def inner(S: Any, xs: Any) -> int:
        calls.append(1)
        return len(xs)

    from rulelang.runtime import WORK

    WORK[0] = 10**9
    m = memo(inner, 1, (True,))
    cache = m.memo["cache"]
    assert m(None, [3, 1, 2]) == 3 and m(None, [1, 2, 3]) == 3  # one order-free key
    assert len(calls) == 1 and len(cache) == 1
    big = list(range(limits.MEMO_KEY_ITEMS + 1))
    assert m(None, big) == len(big) and m(None, big) == len(big)
    assert len(calls) == 3 and len(cache) == 1  # computed each time, never kept
    for i in range(limits.MEMO_ITEMS // limits.MEMO_KEY_ITEMS + 10):
        m(None, list(range(i, i + limits.MEMO_KEY_ITEMS)))
    assert sum(len(k) for k in cache) <= limits.MEMO_ITEMS


def test_an_order_free_list_of_texts_is_keyed_and_one_of_lists_is_not() -> None:
    """An order-free list of texts (wild ranks) is part of the key (in its order: texts are
    not summed, memokeys.exact_fallback); a list holding lists (which sorting would compare
    item by item) is never keyed."""
    from rulelang.memo import memo
    from rulelang.runtime import WORK

    calls = []

    def inner(S: Any, h: Any, w: Any) -> int:
        calls.append(1)
        return len(h) + len(w)

    WORK[0] = 10**9
    for free in ((False, True), (True,)):
        calls.clear()
        m = memo(inner, 2, free) if len(free) == 2 else \
            memo(lambda S, w: inner(S, [], w), 1, free)
        args: tuple = ([1, 2], ["2", "A"]) if len(free) == 2 else (["2", "A"],)
        again = args[:-1] + (["A", "2"],)
        assert m(None, *args) == m(None, *args) and len(calls) == 1
        assert m(None, *again) == m(None, *again) and len(calls) == 2
        nested = args[:-1] + ([["2"], ["A"]],)
        assert m(None, *nested) == m(None, *nested) and len(calls) == 4
        assert len(m.memo["cache"]) == 2


def test_a_memo_that_is_never_asked_again_is_dropped_for_a_while() -> None:
    """A memo whose results are not asked for again (a function of a hand that changes at
    every turn) stops keeping them: the answers, and the work they charge, stay the same."""
    from rulelang import limits
    from rulelang.memo import memo
    from rulelang.runtime import WORK

    calls = []

    def inner(S: Any, x: Any) -> int:
        calls.append(1)
        WORK[0] -= 3
        return x * 2

    m = memo(inner, 1, (False,))
    cache, seen = m.memo["cache"], m.memo["seen"]
    WORK[0] = 10**9
    for i in range(limits.MEMO_PROBE):  # every call a new argument: no hits
        assert m(None, i) == 2 * i
    assert seen[2] == limits.MEMO_PAUSE and not cache  # dropped
    w = WORK[0]
    assert m(None, 1) == 2 and len(calls) == limits.MEMO_PROBE + 1 and not cache
    assert w - WORK[0] == 1 + 3  # computed directly, charged the same (its key, its work)
    seen[2] = 0  # the pause over: remembered again
    assert m(None, 5) == 10 and m(None, 5) == 10 and len(cache) == 1 and seen[1] == 1
    assert w - WORK[0] == 3 * (1 + 3)  # a remembered result charges what it cost


def test_any_and_all_of_a_written_out_lambda_are_loops_that_stop_at_the_answer(
        tmp_path: Path) -> None:
    """``any(xs, x -> ...)`` and ``all(...)`` compile to generators over the list (no call of
    the built-in and of a lambda per item): the same answers, stopping at the first item that
    decides, so that a later item's error is never reached."""
    def _load(tmp_path: Path, expr: str) -> Any:
        path = tmp_path / "g.yaml"
        path.write_text(GAME.format(expr=f'"{expr}"'), encoding="utf-8")
        return rulelang.load(str(path))

    game = _load(tmp_path, "any(hand[me], x -> x.rank == 'A') or not all(hand[me], "
                           "x -> x.suit != 'S')")
    for seed in range(40):
        s = game.new_state(None, seed=seed, record=False)
        hand = [game.tables.rank[c] + game.tables.suit[c] for c in s.zones[1 + s.actor]]
        want = any(h[0] == "A" for h in hand) or not all(h[1] != "S" for h in hand)
        assert [m for m in s.legal_moves() if m == "go"] == (["go"] if want else [])
    stop = _load(tmp_path, "any([1, 2], x -> x == 1 or 1 // (x - 2) == 0)")
    assert "go" in stop.new_state(None, seed=1, record=False).legal_moves()
    late = _load(tmp_path, "all([1, 2], x -> x == 1 and 1 // (x - 2) == 0)")
    assert "go" not in late.new_state(None, seed=1, record=False).legal_moves()


@pytest.mark.parametrize("name", ["crazy-eights", "thirty-one"])
def test_loop_variables_and_hoisted_slots_as_locals_play_the_same(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Statement loops (a when's any/all, a listing's arguments) keep their variables and the
    slots of their hoisted calls in Python locals (codegen.local_slot): the same moves, work
    and games as with every variable in the frame."""
    from rulelang import codegen

    fast = rulelang.load(name)
    if name == "crazy-eights":  # draw's when: not any(playable(c) ...), top(discard) hoisted
        src = "\n".join(text for text, _span in fast.generated.sources)
        assert ":= " in src
    monkeypatch.setattr(codegen, "LOCALS", False)
    slow = rulelang.load(name)
    for seed in range(2):
        a = fast.new_state(4, seed=seed, record=False)
        b = slow.new_state(4, seed=seed, record=False)
        rng = random.Random(seed)
        for _ in range(150):
            if a.is_over():
                break
            assert a.num_moves() == b.num_moves() and a.work_done == b.work_done
            i = int(rng.random() * a.num_moves())
            a.apply_index(i)
            b.apply_index(i)
        assert a.result() == b.result() and a.work_done == b.work_done


def test_a_product_with_a_written_out_number_is_bounded_as_before(tmp_path: Path) -> None:
    # `y * 1000` of a local is written out (no call of mul_values) within the bound that keeps
    # the product within 10^30; beyond it, the same error as the call gives
    game = _game(tmp_path, "  huge(p): let x = 100000000000000; let y = x * x; y * 1000\n",
                 "huge(me) > 1")
    with pytest.raises(RuntimeRulesError, match="beyond 10"):
        game.new_state(4, seed=1, record=False)
    game = _game(tmp_path, "  half(p): let x = c[p] + 0.5; let y = x * 2; y * -3\n",
                 "half(me) < 0")
    assert game.new_state(4, seed=1, record=False).is_over()


def test_a_search_for_a_cards_attribute_checks_what_is_not_a_card(tmp_path: Path) -> None:
    # `c.rank in w` of a card reads the rank table and searches without contains()'s checks of
    # it (scope.search_flat); anything else goes through attr() and contains() as before
    game = _game(tmp_path, "  odd(p): any([999999], c -> c.rank in ['A', 'K'])\n", "odd(me)")
    with pytest.raises(RuntimeRulesError, match="not a card"):
        game.new_state(4, seed=1, record=False)
    game = _game(tmp_path, "  top_in(p): any(hand[p], c -> c.rank not in ['A', 'K'])\n",
                 "top_in(me)")
    assert game.new_state(4, seed=1, record=False).is_over()
    # the attribute of a value that is no local (scope.search_attr): a record, a number
    game = _game(tmp_path, "  rec(p, w): \"[{rank: 'A'}][0].rank in w and hand[p][0].rank in w\"\n"
                 "  any_rec(p): rec(p, ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', "
                 "'Q', 'K'])\n", "any_rec(me)")
    assert game.new_state(4, seed=1, record=False).is_over()
    game = _game(tmp_path, "  num(xs, w): xs[0].rank in w\n  n2(p): num([999999], ['A'])\n",
                 "n2(me)")
    with pytest.raises(RuntimeRulesError, match="not a card"):
        game.new_state(4, seed=1, record=False)


def test_a_call_naming_only_earlier_loop_variables_is_made_once_per_item_alike(
        tmp_path: Path) -> None:
    # `few(a)` in `for a in .. for b in .. if few(a) >= b` is made once per `a` (hoist.py's
    # clause_invariant_calls): the same pairs; a call never reached (no `b` for `a` = 0) is
    # still not made, and one reached still raises its error
    fns = ("  few(x): size([y for y in [1, 2, 3, 4, 5, 6] if y <= 10 // x])\n"
           "  pairs(p, xs): \"[[a, b] for a in xs for b in (if a == 0 then [] else [3, 4, 5])"
           " if few(a) >= b]\"\n")
    game = _game(tmp_path, fns, "size(pairs(me, [1, 2, 0, 3])) == 7")
    s = game.new_state(4, seed=1, record=False)
    assert s.is_over()
    assert game.functions["pairs"].fn(s, 0, [1, 2, 0, 3]) == [[1, 3], [1, 4], [1, 5],
                                                              [2, 3], [2, 4], [2, 5], [3, 3]]
    game = _game(tmp_path, fns.replace("if a == 0", "if a == 9"), "size(pairs(me, [1, 0])) > 0")
    with pytest.raises(RuntimeRulesError, match="division by zero"):
        game.new_state(4, seed=1, record=False)
