"""``simulate --check``: after every decision every card is in exactly one zone and every sum
the rules file declares under ``conserved:`` is unchanged; a violation makes the run exit 1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulelang
from rulelang import sim

from .helpers import assert_no_traceback, output, rules_files, run_cli

GAMES = rules_files()


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_bundled_games_keep_their_invariants(path: Path) -> None:
    game = rulelang.load(str(path))
    n = game.default_players
    # one game at the file's default options (the random-game test plays many more, with the
    # options that shorten a match); three cost ~5 s of CPU in all, most of it at a pot game's
    # default stake
    stats = sim.run(str(path), {}, n, 1, ["random"] * n, 11, check=True)
    assert stats["games"] == 1
    assert stats["invariant_violations"] == 0, stats.get("problems")


BROKEN = """\
extends: thirty-one-banking
name: Leaky Banking
procedures:
  # pays the winners but forgets to empty the pot: tokens are created
  award(w):
    - for p in w { tokens[p] += pot }
"""


def test_a_broken_conserved_sum_is_caught(tmp_path: Path) -> None:
    p = tmp_path / "leaky.yaml"
    p.write_text(BROKEN, encoding="utf-8")
    assert run_cli("check", str(p)).returncode == 0
    r = run_cli("simulate", str(p), "--games", "3", "--check", "--json")
    assert_no_traceback(r)
    assert r.returncode == 1, output(r)
    stats = json.loads(r.stdout)
    assert stats["invariant_violations"] >= 1
    assert any("conserved 'chips' changed" in x for x in stats["problems"])
    r = run_cli("simulate", str(p), "--games", "3", "--check")
    assert r.returncode == 1
    assert "invariant violations" in r.stdout


def test_a_lost_card_is_caught() -> None:
    game = rulelang.load("thirty-one")
    s = game.new_state(3, seed=1)
    assert s.check_invariants() == []
    stock = next(z for z in game.zones if z.name == "stock").first_id
    lost = s.zones[stock].pop()
    problems = s.check_invariants()
    assert any(game.tables.name[lost] in x and "0 zones" in x for x in problems)
    s.zones[stock].append(lost)
    s.zones[stock].append(lost)
    assert any("2 zones" in x for x in s.check_invariants())
