"""What `simulate` says besides its statistics: the seed and options in its JSON (what
reproduces the run), and progress lines on stderr when no progress bar is shown."""

from __future__ import annotations

import json

from rulelang.simio import progress_lines

from .helpers import output, run_cli


def test_json_names_the_seed_and_every_option() -> None:
    r = run_cli("simulate", "thirty-one", "--games", "2", "--seed", "5", "--json",
                "--option", "lives=2")
    assert r.returncode == 0, output(r)
    d = json.loads(r.stdout)
    assert d["seed"] == 5
    assert d["options"]["lives"] == 2 and "blitz_after_knock" in d["options"]


def test_progress_lines_come_after_a_while_and_not_at_the_end() -> None:
    said: list[str] = []
    advance = progress_lines(10, said.append, first=0.0, every=0.0)
    for _ in range(10):
        advance(1)
    assert said[0] == "simulating: 1 of 10 games (0 s)"
    assert len(said) == 9  # none once every game is done
    quiet: list[str] = []
    advance = progress_lines(10, quiet.append, first=3600.0)
    advance(5)
    assert quiet == []
