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


def test_ctrl_c_prints_the_statistics_of_the_games_finished() -> None:
    import os
    import signal
    import subprocess

    from .helpers import RULELANG
    from .test_cli_robust import communicate, default_sigint, wait_until_busy

    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    proc = subprocess.Popen([RULELANG, "simulate", "thirty-one", "--games", "1000000", "--json",
                             "--seed", "4"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, preexec_fn=default_sigint)
    wait_until_busy(proc, 1.5)
    proc.send_signal(signal.SIGINT)
    out, err = communicate(proc)
    assert proc.returncode == 130, err
    d = json.loads(out)
    assert d["interrupted"] is True and 0 < d["games"] < 1_000_000 and d["seed"] == 4
    assert f"{d['games']} of 1000000 games finished" in err
    assert err.strip().endswith("interrupted") and "Traceback" not in err
