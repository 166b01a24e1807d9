"""Checks written inline in generated code give what the calls they replace give: a counter's
bounds (``runtime.counter``), procedures compiled again with the small functions they call
inlined (``build``), the seats of ``seats_from`` used without a check."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RuntimeRulesError

GAME = """\
name: Inline
players: {min: 2, max: 4, default: 3}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [S, H, D, C]}
zones:
  stock: {visibility: hidden, home: true}
  hand: {per_player: true, visibility: owner}
counters:
  score: 0
functions:
  live(p): size(hand[p]) > 0
  first_live(p): 'first([q for q in seats_from(p) if live(q)])'
  triple(h): size(h) * 3
  huge(h): 1000000000000000 * 1000000000000 * size(h)
  neg(n): -4 * n
  half(n): n * 0.5
procedures:
  add(p, n): score[p] += n
  put(p, v): score[p] = v
  mark(p): score[first_live(p)] += 1
  odd(p): "if score[p] == '1' { score[p] += 1 }"
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 2)"]
  settle: {done: pass}
phases:
  play:
    actions:
      go:
        do: end_round('done')
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> object:
    path: Path = tmp_path_factory.mktemp("inline") / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    return rulelang.load(str(path))


def test_a_counter_keeps_its_bounds_when_checked_inline(game: object) -> None:
    s = game.new_state(3, seed=1, record=False)  # type: ignore[attr-defined]
    add, put = game.functions["add"].fn, game.functions["put"].fn  # type: ignore[attr-defined]
    put(s, 0, 10**30)
    add(s, 0, -2 * 10**30)
    assert s.ctr[0][0] == -(10**30)
    put(s, 1, 2.5)
    assert s.ctr[0][1] == 2.5
    for bad in ((add, 0, -1), (put, 1, 10**30 + 1), (put, 1, float("inf"))):
        with pytest.raises(RuntimeRulesError, match="would become"):
            bad[0](s, *bad[1:])
    put(s, 2, "x")  # not a number: as runtime.counter lets it through (the checker warns)
    assert s.ctr[0][2] == "x"


def test_a_procedure_inlines_the_functions_it_calls(game: object) -> None:
    dump = game.generated.dump()  # type: ignore[attr-defined]
    mark = dump[dump.rindex("mark(p):"):]  # the procedure as compiled the second time
    mark = mark[:mark.index("\n\n")]
    assert "UserFn(name='live'" not in mark and "UserFn(name='first_live'" not in mark
    assert "seats_from" in mark and "_seat(" not in mark.split("seats_from", 1)[1]
    s = game.new_state(3, seed=1, record=False)  # type: ignore[attr-defined]
    s.zones[1 + 1].clear()  # seat 1 folded: the first seat from 1 with cards is 2
    game.functions["mark"].fn(s, 1)  # type: ignore[attr-defined]
    game.functions["mark"].fn(s, 7)  # (seats_from(7) at a table of 3: from seat 1)
    assert s.ctr[0] == [0, 0, 2]
    with pytest.raises(RuntimeRulesError, match="wrong kind"):
        game.functions["mark"].fn(s, "x")  # type: ignore[attr-defined]


def test_a_size_times_a_number_is_a_plain_product(game: object) -> None:
    dump = game.generated.dump()  # type: ignore[attr-defined]
    triple = dump[dump.index("triple(h)"):dump.index("huge(h)")]
    assert "* 3)" in triple and "mul_values" not in triple
    huge = dump[dump.index("huge(h)"):]
    assert "mul_values" in huge[:huge.index("\n\n")]  # too big a number: checked as before
    s = game.new_state(3, seed=1, record=False)  # type: ignore[attr-defined]
    f = game.functions  # type: ignore[attr-defined]
    assert f["triple"].fn(s, [5, 6]) == 6 and f["huge"].fn(s, [5, 6]) == 2 * 10**27
    with pytest.raises(RuntimeRulesError):
        f["triple"].fn(s, 4)


def test_a_number_kept_as_a_constant_times_a_variable_is_checked_inline(game: object) -> None:
    from rulelang.scope import mul_values
    dump = game.generated.dump()  # type: ignore[attr-defined]
    for name, k in (("neg", -4), ("half", 0.5)):
        body = dump[dump.index(f"{name}(n)"):]
        assert " if type(a0) is int" in body[:body.index("\n\n")]
        fn = game.functions[name].fn  # type: ignore[attr-defined]
        for n in (3, -2.5, True, 10**29, 10**400, "x", [1]):
            try:
                want: object = mul_values(k, n) if name == "neg" else mul_values(n, k)
            except (RuntimeRulesError, OverflowError) as e:
                want = type(e)
            try:
                got: object = fn(None, n)
            except RuntimeRulesError:
                got = RuntimeRulesError if want is not OverflowError else OverflowError
            assert got == want and type(got) is type(want), (name, n)


def test_a_procedure_compiled_again_warns_once(tmp_path: Path) -> None:
    from rulelang.build import check_all
    from rulelang.rules import load_rules

    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    errors, warnings = check_all(load_rules(str(path)))
    assert not errors
    assert [w.message.split(":")[0] for w in warnings] == [
        "a number compared with text is never equal"]
