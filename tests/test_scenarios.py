"""Scenario files (docs/scenarios.md) against a small game of its own: a fixed deal into zones
of groups, what ``round.start`` works out from a fixed deal, a rules failure while a move is
tried (never a rejection), and how a failed ``legal:`` expectation names moves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang

from .helpers import assert_no_traceback, output, run_cli

# round.start works out two things from the cards it deals: the upcard's suit, and who holds
# the 2C; `poke`'s when: fails after a `poke`, `pick`'s args: after a `give` (an index past a
# list's end)
GAME = """\
name: Scenario bench
players: {min: 2, max: 3, default: 2}
deck:
  ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A]
  suits: [S, H, D, C]
zones:
  stock: {visibility: hidden, home: true}
  hand: {per_player: true, visibility: owner}
  discard: {visibility: top}
  melds: {per_player: true, groups: true, visibility: public}
  board: {groups: true, visibility: public}
globals:
  up: none
  holder: none
  boom: 0
round:
  start:
    - GATHER
    - "deal(stock, hand, 3, face: 'FACE')"
    - move(top(stock), discard)
    - up = top(discard).suit
    - holder = first([p for p in players if any(c.name == '2C' for c in hand[p])])
  triggers:
    done: size(discard) >= 4
  settle:
    done: pass
match:
  over: "true"
phases:
  play:
    actions:
      hit:
        args: {c: "hand[me]", g: "melds[me]"}
        do: move(c, g)
      give:
        args: {p: "[p for p in players if p != me]"}
        do: move(top(hand[me]), hand[p]); boom = 2
      poke:
        when: "boom != 1 or [1][boom] == 1"
        do: boom = 1
      pick:
        args: {c: "[c for c in hand[me] if boom != 2 or [1][boom] == 1]"}
        do: move(c, discard)
"""


def write_game(path: Path, gather: str = "gather(stock); shuffle(stock)",
               face: str = "down") -> Path:
    path.write_text(GAME.replace("GATHER", gather).replace("FACE", face), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("scenarios")
    write_game(d / "bench.yaml")
    return d


@pytest.fixture(scope="module")
def game(folder: Path) -> Any:
    return rulelang.load(str(folder / "bench.yaml"))


HEAD = "game: bench.yaml\nplayers: 2\ndeal:\n  hand: [[2S, 3S, 4S], [2C, 5S, 6S]]\n"
MELDS = "  melds: [[[7H, 7D, 7C]], [[9H, TH, JH], [KS, KH, KD]]]\n  board: [[QC, QD]]\n"


def run(folder: Path, name: str, text: str) -> Any:
    """``rulelang test`` of a scenario written in ``folder``: (its path, the run)."""
    p = folder / f"{name}.scenario.yaml"
    p.write_text(text, encoding="utf-8")
    r = run_cli("test", str(p))
    assert_no_traceback(r)
    return p, r


# ---------------------------------------------------------------- a fixed deal
def test_deal_lays_groups_and_loses_no_card(folder: Path) -> None:
    _p, r = run(folder, "groups", HEAD + MELDS + "  discard: [8D]\nmoves:\n"
                "  - \"1: hit 6S P1#2\"\nexpect:\n  zones:\n"
                "    melds: [[[7H, 7D, 7C]], [[9H, TH, JH], [6S, KS, KH, KD]]]\n"
                "    board: [[QD, QC]]\n    hand: [[2S, 3S, 4S], [2C, 5S]]\n    discard: [8D]\n"
                "  sizes: {stock: 34}\n")
    assert r.returncode == 0, output(r)


@pytest.mark.parametrize(("deal", "line"), [
    ("  board: [QC, QD]\n", "board: [QC, QD]"),              # a flat list: no group
    ("  melds: [[7H, 7D, 7C], []]\n", "melds: [[7H, 7D, 7C], []]"),
    ("  melds: [[[]], []]\n", "melds: [[[]], []]"),           # an empty group
    ("  board: [[QC, QX]]\n", "board: [[QC, QX]]"),           # not a card
])
def test_deal_into_groups_refuses_what_it_cannot_lay(folder: Path, deal: str, line: str) -> None:
    p, r = run(folder, "bad-groups", HEAD + deal)
    assert r.returncode == 1
    assert f"{p}: FAIL: bad scenario" in r.stdout
    assert f"{p}:5:10: error: deal: " in r.stderr, output(r)
    assert line in r.stderr


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_round_start_works_out_from_the_fixed_deal(game: Any, seed: int) -> None:
    """What round.start computes describes the scenario's cards, and the position is the one
    the fixed deal gave before (the random deal's cards kept where the scenario names none)."""
    deal = {"hand": [["2S", "3S", "4S"], ["2C", "5S", "6S"]], "discard": ["8D"]}
    s = game.new_state(2, seed=seed, deal=deal)
    assert s.g[:2] == ["D", 1]
    old = game.new_state(2, seed=seed)  # the random deal, then the cards laid over it
    old.lay_out(deal)
    assert s.zones == old.zones and s.loc == old.loc
    # a position round.start cannot deal (a hand of four, groups): put in place after it
    deal = {"hand": [["2S", "3S", "4S", "9S"], ["2C", "5S", "6S"]], "discard": ["8H"],
            "board": [["QC", "QD"]]}
    s = game.new_state(2, seed=seed, deal=deal)
    assert s.g[:2] == ["H", 1]
    assert [s.game.tables.name[c] for c in s.zones[s.game.zone_names.index("discard")]] == ["8H"]
    assert not s.check_invariants()


def test_round_start_without_gather_and_faces(tmp_path: Path) -> None:
    """A round.start that gathers nothing is dealt from a stacked pack all the same, and a
    card the rules deal face up lies face up in the fixed deal too."""
    g = rulelang.load(str(write_game(tmp_path / "g.yaml", gather="shuffle(stock)", face="up")))
    s = g.new_state(2, seed=3, deal={"hand": [["2S", "3S", "4S"], ["5S", "6S", "2C"]],
                                     "discard": ["KC"]})
    assert s.g[:2] == ["C", 1]
    hand0 = s.zones[s.game.zone_names.index("hand")]
    assert [s.game.tables.name[c] for c in hand0] == ["2S", "3S", "4S"]
    assert all(s.face[c] for c in hand0)


# ---------------------------------------------------------------- the rules failing
@pytest.mark.parametrize(("moves", "where"), [
    ('  - "1: poke"\n  - "0: pick 2S"\n', "while playing move 2"),
    ('  - "1: poke"\n  - illegal: "0: poke"\n', "while trying move 2"),
    ('  - "1: give P0"\n  - illegal: "0: pick 2S"\n', "while trying move 2"),
])
def test_a_rules_failure_is_not_a_rejection(folder: Path, moves: str, where: str) -> None:
    p, r = run(folder, "failing", HEAD + "moves:\n" + moves)
    assert r.returncode == 1
    assert f"{p}: FAIL: the rules failed while the scenario ran" in r.stdout, output(r)
    assert "rejected" not in output(r)
    assert where in r.stderr
    # located at the rules text of pick's args: or of poke's when: (its opening quote)
    key = 'args: {c: "[c' if "give" in moves else 'when: "boom'
    line, text = next((i, ln) for i, ln in enumerate(GAME.splitlines(), 1) if key in ln)
    col = text.index('"') + 1
    assert f"bench.yaml:{line}:{col}: error: index " in r.stderr, r.stderr


def test_failed_legal_names_moves_canonically(folder: Path) -> None:
    p, r = run(folder, "legal", HEAD + "  discard: [8D]\nexpect:\n  legal: [give p0, pick 10s, "
                "pick 5s, pick 6s, poke, pick 9h]\n")
    assert r.returncode == 1
    fail = next(ln for ln in r.stdout.splitlines() if ln.startswith(f"{p}: FAIL:"))
    assert fail == (f"{p}: FAIL: expected legal = [give P0, pick 5S, pick 6S, pick 9H, pick TS, "
                    "poke], got [give P0, pick 2C, pick 5S, pick 6S, poke] (not legal: [pick 9H, "
                    "pick TS]; legal too: [pick 2C])"), fail
