"""``turn.first_phase`` written as an expression: each turn starts in the phase it gives,
checked like ``next:`` (phase names are words; an unknown one, ``end_turn``, or none at all is
a located check error; a phase it names is reachable), and a value that is no phase while the
game runs is a located error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.errors import RulesError

GAME = """
name: Phases
players: {min: 2, max: 4, default: 2}
deck: {ranks: [9, T, J, Q, K, A], suits: [S, H]}
zones:
  stock: {home: true}
  hand: {per_player: true}
globals:
  stage: "'ask'"
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 2)", "stage = 'ask'"]
  settle: {done: pass}
turn:
  first_phase: "if stage == 'ask' then asking else playing"
phases:
  asking:
    actions:
      ask: {do: "stage = 'play'"}
  playing:
    actions:
      play:
        args: {c: "hand[me]"}
        do: "move(c, stock); if size(hand[me]) == 0 { end_round('done') }"
"""


def load(tmp_path: Path, text: str = GAME) -> Any:
    p = tmp_path / "t.yaml"
    p.write_text(text, encoding="utf-8")
    return rulelang.load(str(p))


def test_each_turn_starts_in_the_phase_the_expression_gives(tmp_path: Path) -> None:
    s = load(tmp_path).new_state(2, seed=1)
    assert (s.turn, s.phase, s.legal_moves()) == (1, "asking", ["ask"])
    s.apply("ask")
    assert (s.turn, s.phase) == (0, "playing")
    assert all(m.startswith("play ") for m in s.legal_moves())


def test_a_phase_named_outright_still_works(tmp_path: Path) -> None:
    s = load(tmp_path, GAME.replace("first_phase: \"if stage == 'ask' then asking else "
                                    "playing\"", "first_phase: asking")
             .replace("      ask: {do: \"stage = 'play'\"}", "      ask: {do: \"stage = 'play'\","
                      " next: playing}")).new_state(2, seed=1)
    assert s.phase == "asking" and s.game.first_phase_fn is None
    s.apply("ask")
    assert (s.turn, s.phase) == (1, "playing")


@pytest.mark.parametrize("new,message", [
    ("if stage == 'ask' then askng else playing", "'askng'"),
    ("if stage == 'ask' then end_turn else playing", "a turn cannot end before it starts"),
    ("stage + ''", "turn.first_phase names no phase"),
    ("stag", "turn.first_phase 'stag' is not a phase"),
])
def test_misuse_is_a_located_check_error(tmp_path: Path, new: str, message: str) -> None:
    with pytest.raises(RulesError) as e:
        load(tmp_path, GAME.replace("if stage == 'ask' then asking else playing", new))
    text = e.value.render()
    assert message in text and "t.yaml:" in text and "^" in text


def test_a_value_that_is_no_phase_is_a_located_error(tmp_path: Path) -> None:
    game = load(tmp_path, GAME.replace("if stage == 'ask' then asking else playing",
                                       "if stage == 'ask' then asking else if stage == 'x' "
                                       "then playing else stage"))
    s = game.new_state(2, seed=1)
    with pytest.raises(RulesError, match=r"turn\.first_phase gives 'play', which is not a phase") \
            as e:
        s.apply("ask")
    assert "t.yaml:" in e.value.render()


def test_without_first_phase_the_first_phase_listed_starts_whatever_its_name(
        tmp_path: Path) -> None:
    # a phase named like no expression ("draw it!") was parsed as one: an error with no place
    p = tmp_path / "g.yaml"
    p.write_text("name: g\ndeck: {}\nzones: {s: {home: true}}\nround:\n  triggers:\n"
                 "    done: turns > 2\nphases:\n  'draw it!':\n    actions: {wait: {}}\n",
                 encoding="utf-8")
    g = rulelang.load(str(p))
    assert g.first_phase == "draw it!"
