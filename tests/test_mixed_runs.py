"""Runs across suits: ``runs(cards, lo, suited: false)`` and ``is_run(cards, suited: false)``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import rulelang
from rulelang.limits import MAX_WORK
from rulelang.runtime import LIMIT, WORK

from .helpers import output, run_cli

GAME = """\
name: Runs
deck: {}
zones:
  stock: {home: true}
  hand: {per_player: true}
functions:
  mixed(cs): "size(runs(cs, 3, suited: false))"
  longest(cs): "max([size(r) for r in runs(cs, 3, suited: false)], default: 0)"
  suited(cs): "size(runs(cs, 3))"
  is_mixed(cs): "is_run(cs, suited: false)"
  is_suited(cs): "is_run(cs)"
  high(cs): "size(runs(cs, 3, suited: false, ace: 'high'))"
hand_evaluator: mixed
match: {over: "true"}
round:
  start: [gather(stock)]
  triggers: {done: "true"}
phases:
  p: {actions: {a: {}}}
"""


_GAMES: dict[str, Any] = {}


def score(tmp_path: Path, evaluator: str, *cards: str) -> str:
    """The function's value for the cards, as `rulelang score --evaluator` prints it."""
    g = _GAMES.get("runs")
    if g is None:
        p = tmp_path / "runs.yaml"
        p.write_text(GAME, encoding="utf-8")
        g = _GAMES["runs"] = rulelang.load(str(p))
    ids = g.tables.ids_by_name()
    WORK[0] = LIMIT[0] = MAX_WORK
    return str(g.functions[evaluator].fn(g.new_state(2), [ids[c][0] for c in cards]))


def test_runs_across_suits_one_per_choice_of_cards(tmp_path: Path) -> None:
    # 5-6-7 twice (two 5s), 6-7-8, 5-6-7-8 twice
    assert score(tmp_path, "mixed", "5H", "5S", "6C", "7D", "8D") == "5"
    assert score(tmp_path, "longest", "5H", "5S", "6C", "7D", "8D") == "4"
    assert score(tmp_path, "suited", "5H", "5S", "6C", "7D", "8D") == "0"  # default: one suit
    assert score(tmp_path, "mixed", "QH", "KS", "AC") == "0"  # aces low by default
    assert score(tmp_path, "high", "QH", "KS", "AC") == "1"
    assert score(tmp_path, "mixed", "2H", "3S", "5C") == "0"


def test_is_run_across_suits(tmp_path: Path) -> None:
    assert score(tmp_path, "is_mixed", "5H", "6C", "7D") == "True"
    assert score(tmp_path, "is_suited", "5H", "6C", "7D") == "False"
    assert score(tmp_path, "is_mixed", "5H", "6C", "6D") == "False"  # a rank twice
    assert score(tmp_path, "is_suited", "5H", "6H", "7H") == "True"


def test_suited_takes_true_or_false(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text(GAME.replace("suited: false))\"\n  longest", "suited: 'no'))\"\n  longest"),
                 encoding="utf-8")
    r = run_cli("check", str(p))
    assert r.returncode == 1 and "suited: takes true or false" in output(r), output(r)
