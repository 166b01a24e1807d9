"""Teams: ``teams.of`` gives each seat's team, ``teams.counters`` are shared by a team's
seats, the built-ins ask about partnerships, and play and simulate report teams."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import rulelang
from rulelang.errors import RulesError, UsageError
from rulelang.play import play_game

from .helpers import run_cli
from .test_cli_robust import feed

GAME = """
name: Teams
players: {min: 2, max: 6, default: 4}
deck: {ranks: [9, T, J, Q, K, A], suits: [S, H, D, C]}
zones:
  stock: {home: true}
  hand: {per_player: true}
teams:
  of: me % 2
  counters: [score]
counters:
  score: 0
  mine: 0
globals:
  mates: "teammates(0)"
  pal: "partner(1)"
  all_teams: "teams()"
  seats_of_1: "team_seats(1)"
  t3: "team_of(3)"
match:
  over: max(score) >= 3
  winner: "[p for p in players if score[p] >= 3]"
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 1)"]
  settle: {done: pass}
phases:
  play:
    actions:
      score: {do: "score[me] += 1; mine[me] += 1; end_round('done')"}
"""


def load(tmp_path: Path, text: str = GAME) -> Any:
    p = tmp_path / "t.yaml"
    p.write_text(text, encoding="utf-8")
    return rulelang.load(str(p))


def test_the_built_ins_tell_partnerships(tmp_path: Path) -> None:
    s = load(tmp_path).new_state(6)
    g = s.view(0)["globals"]
    assert g == {"mates": [2, 4], "pal": 3, "all_teams": [0, 1], "seats_of_1": [1, 3, 5],
                 "t3": 1}
    assert s.view(0)["teams"] == [0, 1, 0, 1, 0, 1]


def test_without_teams_each_seat_is_its_own(tmp_path: Path) -> None:
    text = GAME.replace("teams:\n  of: me % 2\n  counters: [score]\n", "")
    s = load(tmp_path, text).new_state(4)
    assert s.view(0)["globals"] == {"mates": [], "pal": None, "all_teams": [0, 1, 2, 3],
                                    "seats_of_1": [1], "t3": 3}
    assert "teams" not in s.view(0)


def test_a_shared_counter_is_set_for_the_whole_team(tmp_path: Path) -> None:
    s = load(tmp_path).new_state(4, auto_continue=False)
    s.apply("score")  # P1 scores: P3 too; a counter of its own is not shared
    assert s.ctr[0] == [0, 1, 0, 1] and s.ctr[1] == [0, 1, 0, 0]


def test_the_winners_are_a_team_and_simulate_counts_team_wins(tmp_path: Path) -> None:
    s = load(tmp_path).new_state(4, start={"score": [2, 0, 2, 0]})
    s.apply("score")  # P1 scores, then P2: the team of P0 and P2 reaches 3
    s.apply("score")
    assert s.is_over() and s.winner == [0, 2]
    r = run_cli("simulate", str(tmp_path / "t.yaml"), "--games", "6", "--json")
    stats = json.loads(r.stdout)
    teams = stats["wins_per_team"]
    assert [t["seats"] for t in teams] == [[0, 2], [1, 3]]
    assert sum(t["wins"] for t in teams) == 6


def test_a_start_that_splits_a_team_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="'score' is kept per team: P0 and P2"):
        load(tmp_path).new_state(4, start={"score": [1, 0, 2, 0]})


def test_play_shows_teams_and_their_scores(tmp_path: Path) -> None:
    game = load(tmp_path)
    buf = io.StringIO()
    con = Console(file=buf, width=120, color_system=None, highlight=False)
    assert play_game(game, 4, 0, ["random"] * 4, 1, input_fn=feed(["1", ""] * 4), console=con) == 0
    out = buf.getvalue()
    assert "teams: you+P2, P1+P3" in out
    assert "score: you+P2=" in out and "P1+P3=" in out


@pytest.mark.parametrize("old,new,message", [
    ("counters: [score]", "counters: [scor]", "'scor' is not a counter (did you mean 'score'?)"),
    ("of: me % 2", "of: \"'red'\"", "teams.of must give a team number"),
    ("of: me % 2", "of: me %% 2", "unexpected"),
])
def test_misuse_is_a_located_check_error(tmp_path: Path, old: str, new: str,
                                         message: str) -> None:
    with pytest.raises(RulesError) as e:
        load(tmp_path, GAME.replace(old, new))
    text = e.value.render()
    assert message in text and "t.yaml:" in text and "^" in text


def test_a_team_number_out_of_range_is_a_located_error(tmp_path: Path) -> None:
    game = load(tmp_path, GAME.replace("of: me % 2", "of: me + 10"))
    with pytest.raises(RulesError, match=r"teams\.of gives 10 for P0") as e:
        game.new_state(4)
    assert "t.yaml:" in e.value.render()
