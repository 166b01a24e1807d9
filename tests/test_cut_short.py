"""``simulate --max-rounds N`` ends a game that reaches N rounds there (cut short, with no
winner) instead of ending the run: the statistics are printed, the games cut short counted (in
the text and ``cut_short`` in ``--json``), the same for any ``--workers``; a log of such a game
replays as logged and ``replay --show`` says it was cut short."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import output, run_cli

ARGS = ("simulate", "thirty-one", "--players", "3", "--games", "6", "--seed", "2",
        "--max-rounds", "2")


def _stats(*extra: str) -> dict:
    r = run_cli(*ARGS, "--json", *extra)
    assert r.returncode == 0, output(r)
    s = json.loads(r.stdout)
    for k in [k for k in s if "sec" in k]:
        del s[k]
    return s


def test_games_reaching_the_limit_are_cut_short_not_the_run(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    one = _stats("--record", str(log))
    assert one["cut_short"] == 6 and one["max_rounds"] == 2 and one["rounds"] == 12
    assert all(r["wins"] == 0 for r in one["wins_per_seat"])  # no winner counted for them
    assert _stats("--workers", "2") == one
    r = run_cli(*ARGS)
    assert r.returncode == 0, output(r)
    assert "games cut short at 2 rounds (--max-rounds): 6 of 6" in r.stdout
    rep = run_cli("replay", str(log))
    assert rep.returncode == 0 and "6 as logged" in rep.stdout, output(rep)
    show = run_cli("replay", str(log), "--show", "--game", "1")
    assert show.returncode == 0, output(show)
    assert show.stdout.rstrip().endswith("the game was cut short: 2 rounds played, the most "
                                         "the run allowed (simulate --max-rounds)")
    # each move with the cards it moved (narrate.py): every card named without --seat, the
    # others' draws from the stock counted from a seat
    assert " draw stock — " in show.stdout and " from stock to P" in show.stdout
    mine = run_cli("replay", str(log), "--show", "--game", "1", "--seat", "0")
    assert "draw stock — a card from stock to P" in mine.stdout, output(mine)


def test_a_limit_not_reached_changes_nothing() -> None:
    r = run_cli("simulate", "thirty-one", "--players", "2", "--games", "3", "--option",
                "lives=1", "--max-rounds", "50", "--json")
    s = json.loads(r.stdout)
    assert r.returncode == 0 and s["cut_short"] == 0
    assert sum(x["wins"] for x in s["wins_per_seat"]) == 3
