"""Lists and records in counters and globals (structured.py): typed by their starting value,
set by a path (``bets[p][0].stake = 5``) without changing any value in place, so that clones
and sampled worlds never share a change; shown as rules text writes them; left out of the
statistics of numeric counters."""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import pytest

import rulelang
from rulelang.build import check_only
from rulelang.errors import RuntimeRulesError
from rulelang.rules import load_rules

from .helpers import output, run_cli

BASE = """\
name: Structured test
players: {min: 2, max: 2, default: 2}
deck: {ranks: [2, 3, 4, 5], suits: [S, H]}
zones:
  stock: {home: true}
  hand: {per_player: true}
counters:
  chips: 10
  bets: []
  best: {stake: 0, doubled: false}
globals:
  hist: "[]"
  last: "{who: -1, n: 0}"
conserved:
  chips: sum(chips)
round:
  start: ["gather(stock)", "shuffle(stock)", "deal(stock, hand, 1)",
          "for p in players { bets[p] = [] }"]
  settle: {done: pass}
match: {over: round >= 2}
phases:
  p:
    actions:
      bet:
        args: {n: "[5, 10]"}
        do:
          - "bets[me] = bets[me] + [{stake: n, doubled: false}]"
          - hist = hist + [n]; last.who = me; last.n = size(hist)
          - bets[me][0].stake += 1; best[me].stake = best[me].stake + bets[me][0].stake
          - if size(bets[me]) > 1 { bets[me][1].doubled = true; end_round('done') }
"""


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "s.yaml"
    p.write_text(textwrap.dedent(text))
    return p


def _messages(text: str, tmp_path: Path) -> list[str]:
    path = _write(tmp_path, text)
    return [f"{e.span.line}:{e.span.col}: {e.message}" for e in check_only(load_rules(str(path)))]


def test_lists_and_records_check_and_work(tmp_path: Path) -> None:
    game = rulelang.load(str(_write(tmp_path, BASE)))
    s = game.new_state(2, seed=3, auto_continue=False)
    for move in ("bet 5", "bet 10", "bet 10"):
        s.apply(move)
    bets = s.ctr[1]  # P1 moves first: bet 5, then P0 bet 10, then P1 bet 10
    assert bets[1] == [{"stake": 7, "doubled": False}, {"stake": 10, "doubled": True}]
    assert bets[0] == [{"stake": 11, "doubled": False}]
    assert s.ctr[2] == [{"stake": 11, "doubled": False}, {"stake": 6 + 7, "doubled": False}]
    assert s.g[0] == [5, 10, 10] and s.g[1] == {"who": 1, "n": 3}
    assert s.ended_by == "done"
    # typed: a list counter is a list, its items records; views show them as they are
    assert game.counter_types["bets"].startswith("list") and game.counter_types["chips"] == "int"
    v = s.view(1)
    assert v["counters"]["bets"][1][1] == {"stake": 10, "doubled": True}
    assert v["globals"]["hist"] == [5, 10, 10]


def test_clones_and_samples_share_no_change(tmp_path: Path) -> None:
    game = rulelang.load(str(_write(tmp_path, BASE)))
    s = game.new_state(2, seed=3, auto_continue=False)
    s.apply("bet 5")
    before = json.dumps([s.ctr, s.g])
    c = s.clone()
    d = s.determinize(1, random.Random(1))
    for t in (c, d):
        t.apply("bet 10")
        t.apply("bet 10")
    assert json.dumps([s.ctr, s.g]) == before
    assert c.ctr[1][0] != s.ctr[1][0]


@pytest.mark.parametrize("change, message", [
    ("bets[me] = bets[me] + [{stake: n, doubled: false}]", None),
    ("bets[me] = n", "cannot assign this to 'bets': it holds a list (its starting value is "
                     "one), not int"),
    ("chips[me] = [n]", None),  # a counter that starts as a number holds what it is given
    ("hist = 3", "cannot assign this to 'hist': it holds a list"),
    ("chips[me][0] = 1", "'chips' holds a number (its starting value is one): it has no places"),
    ("bets[me] = [{stake: n, stake: 1}]", "field 'stake' is given twice in this record"),
    ("stock[0] = 1", "only a counter can be assigned by seat; 'stock' is not one"),
    ("stock[0].x = 1", "only a place inside a counter or a global can be assigned"),
])
def test_shapes_are_checked(tmp_path: Path, change: str, message: str | None) -> None:
    text = BASE.replace("bets[me] = bets[me] + [{stake: n, doubled: false}]", change)
    msgs = _messages(text, tmp_path)
    if message is None:
        assert msgs == []
    else:
        assert len(msgs) == 1 and message in msgs[0], msgs
        assert msgs[0].startswith(f"{text[:text.index(change)].count(chr(10)) + 1}:")


def test_a_bad_place_is_a_located_run_time_error(tmp_path: Path) -> None:
    for change, message in (("bets[me][3].stake = 1", "index 3 is out of range"),
                            ("bets[me][0].stak = 1", "this record has no field 'stak'"),
                            ("last['who'][0] = 1", "cannot set [0] of int")):
        text = BASE.replace("bets[me][0].stake += 1", change)
        game = rulelang.load(str(_write(tmp_path, text)))
        s = game.new_state(2, seed=3)
        with pytest.raises(RuntimeRulesError) as e:
            s.apply("bet 5")
        assert message in e.value.message
        assert e.value.span.line == text[:text.index(change)].count("\n") + 1


def test_yaml_data_that_cannot_be_written_is_a_check_error(tmp_path: Path) -> None:
    text = BASE.replace("best: {stake: 0, doubled: false}", "best: {'two words': 0}")
    msgs = _messages(text, tmp_path)
    assert len(msgs) == 1 and "cannot be written as rules text" in msgs[0]


def test_play_shows_them_and_simulate_leaves_them_out(tmp_path: Path) -> None:
    path = _write(tmp_path, BASE)
    r = run_cli("play", str(path), "--seed", "2", stdin="bet 5\nbet 5\n")
    out = output(r)
    assert r.returncode == 0, out
    assert "best: you={stake: 6, doubled: false}" in out
    assert "hist: [5" in out
    r = run_cli("simulate", str(path), "--games", "3", "--check")
    assert r.returncode == 0, output(r)
    assert "change of chips" in r.stdout and "change of bets" not in r.stdout
    assert "change of best" not in r.stdout


def test_scenarios_start_and_expect_lists(tmp_path: Path) -> None:
    _write(tmp_path, BASE)
    (tmp_path / "t.scenario.yaml").write_text(textwrap.dedent("""\
        game: s.yaml
        start: {hist: [1, 2]}
        moves: ["1: bet 5"]
        expect:
          counters: {bets: [[], [{stake: 6, doubled: false}]]}
          globals: {hist: [1, 2, 5], last: {who: 1, n: 3}}
        """))
    r = run_cli("test", str(tmp_path / "t.scenario.yaml"))
    assert r.returncode == 0, output(r)


def test_a_conserved_list_is_compared_as_it_is(tmp_path: Path) -> None:
    text = BASE.replace("  chips: sum(chips)\n", "  chips: sum(chips)\n  seen: hist\n")
    r = run_cli("simulate", str(_write(tmp_path, text)), "--games", "1", "--check")
    assert r.returncode == 1 and "Traceback" not in output(r)  # a violation, reported
    assert "conserved 'seen' changed from [] to [" in r.stdout
