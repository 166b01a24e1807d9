"""Play direction that can change (docs/language.md §4.2, §5.3): ``reverse_direction()``,
``set_direction(d)`` and ``direction = d`` turn play round; ``next_seat``, ``prev_seat``,
``seats_from``, ``deal`` and the turn order follow; ``direction`` reads it; the state keeps it
(clones, views), and every round starts the rules' way round."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RuntimeRulesError
from rulelang.seats import Seats, _ring

from .helpers import output, run_cli

ROUND = """\
name: Round
players: {min: 2, max: 5, default: 4}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [S, H, D, C]}
zones:
  stock: {home: true}
  hand: {per_player: true, visibility: owner}
globals:
  way: none
  order: none
round:
  start:
    - gather(stock)
    - START
    - deal(stock, hand, 1)
    - way = direction; order = seats_from(dealer)
  triggers:
    done: turns >= 6
phases:
  play:
    actions:
      turn: {do: way = direction}
      flip: {do: reverse_direction()}
      set: {do: "direction = 'anticlockwise'"}
      bad: {do: "set_direction('left')"}
"""


def game(tmp_path: Path, start: str = "pass") -> rulelang.Game:
    p = tmp_path / "round.yaml"
    p.write_text(ROUND.replace("START", start), encoding="utf-8")
    return rulelang.load(str(p))


def test_reverse_direction_turns_play_round(tmp_path: Path) -> None:
    s = game(tmp_path).new_state(4, seed=0, dealer=0)
    assert s.current_player() == 1 and s.view(0)["direction"] == "clockwise"
    s.apply("flip")
    assert s.current_player() == 0  # from P1 the other way round
    assert s.view(2)["direction"] == "anticlockwise"
    assert s.next_seat(0) == 3 and s.prev_seat(0) == 1 and s.seats_from(2) == [2, 1, 0, 3]
    c = s.clone()
    s.apply("flip")
    assert s.current_player() == 1 and c.current_player() == 0
    c.apply("turn")
    assert c.current_player() == 3 and c.view(0)["globals"]["way"] == "anticlockwise"


def test_direction_can_be_assigned_and_each_round_starts_the_rules_way(tmp_path: Path) -> None:
    s = game(tmp_path).new_state(4, seed=0, dealer=0, auto_continue=False)
    s.apply("set")
    assert s.current_player() == 0
    for _ in range(5):
        s.apply("turn")
    assert s.status == "round_over"
    s.next_round()
    assert s.view(0)["direction"] == "clockwise" and s.current_player() == 2


def test_the_deal_follows_the_direction(tmp_path: Path) -> None:
    g = game(tmp_path, "reverse_direction()")
    s = g.new_state(4, seed=0, dealer=0)
    # not shuffled: the first card (2S) goes to the dealer's right when play goes that way
    assert s.view(3)["zones"]["hand"][3] == ["2S"]
    assert s.view(0)["globals"]["order"] == [0, 3, 2, 1]
    assert s.current_player() == 3  # round.first: next_seat(dealer), the way play goes now


def test_a_bad_direction_is_a_located_error(tmp_path: Path) -> None:
    s = game(tmp_path).new_state(3, seed=0)
    with pytest.raises(RuntimeRulesError, match="set_direction: left is not 'clockwise' or "
                       "'anticlockwise'") as e:
        s.apply("bad")
    assert str(e.value.span).endswith("round.yaml:24:18")  # the set action's do:


def test_a_global_named_direction_is_still_the_global(tmp_path: Path) -> None:
    p = tmp_path / "old.yaml"
    p.write_text(ROUND.replace("START", "pass").replace("  way: none\n",
                                                         "  way: none\n  direction: \"'north'\"\n"),
                 encoding="utf-8")
    r = run_cli("check", str(p))
    assert r.returncode == 0, output(r)
    s = rulelang.load(str(p)).new_state(3, seed=0)
    assert s.view(0)["globals"]["way"] == "north"


def test_uno_reverse_with_two_players_is_a_skip() -> None:
    s = rulelang.load("uno").new_state(2, seed=0, dealer=0, deal={
        "hand": [["G1", "G2"], ["RR", "R3", "B2"]], "discard": ["R7"]})
    s.apply("play RR")
    assert s.current_player() == 1


def test_the_next_seat_table_is_the_seat_by_seat_search() -> None:
    # seats._ring, made in C when the seats in play change: each way round, for every seat
    rng = random.Random(3)
    t = Seats()
    for _ in range(300):
        t.n = n = rng.randint(1, 12)
        t.seated = sorted(rng.sample(range(n), rng.randint(1, n)))
        t.active = [p in t.seated for p in range(n)]
        ring = _ring(t.seated, n)
        assert ring[1] == tuple(t._step_seat(p, 1, 1) for p in range(n))
        assert ring[2] == tuple(t._step_seat(p, 1, -1) for p in range(n))
