"""`rulelang test` reports every failed expectation of a scenario, each at its line, after
the scenario's `PATH: FAIL: REASON` line (the first failure)."""

from __future__ import annotations

from pathlib import Path

from .helpers import output, run_cli

SCENARIO = """\
game: thirty-one
players: 3
seed: 7
deal:
  hand: [[QH, JH, 9C], [AS, KS, 5H], [7C, 7D, 2S]]
  discard: [8D]
moves:
  - "1: draw stock"
  - "1: discard 5H"
expect:
  counters:
    lives: [4, 4, 3]
    nope: [1]
  zones:
    discard: [5H, 8D]
    hand: [[QH, JH, 9C], [], []]
"""


def test_every_failed_expectation_is_reported_at_its_line(tmp_path: Path) -> None:
    p = tmp_path / "x.scenario.yaml"
    p.write_text(SCENARIO)
    r = run_cli("test", str(p))
    assert r.returncode == 1, output(r)
    lines = r.stdout.splitlines()
    assert lines[0] == f"{p}: FAIL: expected counters.lives = [4, 4, 3], got [3, 4, 3]"
    assert lines[1:3] == [
        f"{p}:12: expected counters.lives = [4, 4, 3], got [3, 4, 3]",
        f"{p}:13: expect counters: no counter 'nope'"]
    assert lines[3].startswith(f"{p}:16: expected zones.hand = [[QH, JH, 9C], [], []], got ")
    assert lines[-1] == "0 passed, 1 failed"


def test_a_rejected_move_is_reported_at_its_line(tmp_path: Path) -> None:
    p = tmp_path / "x.scenario.yaml"
    p.write_text(SCENARIO.replace("discard 5H", "discard 2C"))
    r = run_cli("test", str(p))
    assert r.returncode == 1, output(r)
    assert r.stdout.splitlines()[1].startswith(f"{p}:9: move 2 ('1: discard 2C') was rejected")
