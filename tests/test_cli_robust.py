"""The play prompt and the command line under bad input: Ctrl-C, EOF, garbage, huge numbers,
bad cards and options, missing and broken files — a clear message, the contract's exit code,
never a traceback. (The everyday cases are in test_cli.py; these are the hostile ones.)
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

import rulelang
from rulelang.play import play_game

from .helpers import RULELANG, assert_no_traceback, output, run_cli


def feed(lines: list[str], end: type[BaseException] = EOFError):
    it = iter(lines)

    def input_fn(prompt: str = "") -> str:
        try:
            return next(it)
        except StopIteration:
            raise end() from None
    return input_fn


def play_in_process(lines: list[str], end: type[BaseException] = EOFError) -> tuple[int, str]:
    game = rulelang.load("thirty-one")
    buf = io.StringIO()
    con = Console(file=buf, width=120, color_system=None, highlight=False)
    code = play_game(game, 3, 0, ["random"] * 3, 5, input_fn=feed(lines, end), console=con)
    return code, buf.getvalue()


def test_ctrl_c_at_the_prompt_ends_cleanly() -> None:
    code, out = play_in_process(["1"], end=KeyboardInterrupt)
    assert code == 0 and "bye" in out


def test_eof_at_the_prompt_ends_cleanly() -> None:
    code, out = play_in_process([], end=EOFError)
    assert code == 0 and "bye" in out


@pytest.mark.parametrize("bad", [
    "99999999999999999999999999999999", "0", "-5", "1.5", "٣", "²", "♠♠", "\x1b[2J", "x" * 5000,
    "discard", "discard ZZ", "draw", "draw nowhere", "   ", "\t", "1 2", "q!", "None",
    "__import__('os')",
])
def test_garbage_at_the_prompt_reprompts(bad: str) -> None:
    code, out = play_in_process([bad, "q"])
    assert code == 0
    assert out.count("your move>") == 2, out[-2000:]


def test_play_sigint_in_a_real_terminal_session() -> None:
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    proc = subprocess.Popen([RULELANG, "play", "thirty-one", "--seed", "1"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(2.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert "Traceback" not in out + err
    assert proc.returncode in (0, 1, 130), (proc.returncode, out, err)


@pytest.mark.skipif(sys.platform == "win32", reason="signals")
def test_simulate_sigint_no_traceback() -> None:
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    proc = subprocess.Popen([RULELANG, "simulate", "ten-pennies", "--games", "100000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert "Traceback" not in out + err
    assert proc.returncode != 0


def test_simulate_with_workers_ctrl_c_in_a_terminal() -> None:
    # a terminal's Ctrl-C reaches the whole process group, workers included: only the
    # parent answers (exit 130), no worker prints a traceback, none is left running
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    proc = subprocess.Popen([RULELANG, "simulate", "thirty-one", "--games", "100000",
                             "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True)
    time.sleep(4)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert "Traceback" not in out + err and "ForkPoolWorker" not in err, err
    assert proc.returncode == 130
    assert err.strip().endswith("interrupted"), err


@pytest.mark.parametrize("args", [
    ["score", "thirty-one", "ZZ"], ["score", "thirty-one", "AS", "AS"],
    ["score", "thirty-one", "♠A"], ["score", "thirty-one", ""], ["score", "thirty-one", "-1"],
    ["simulate", "thirty-one", "--option", "lives=many"],
    ["simulate", "thirty-one", "--option", "lives=99999999999999999999999"],
    ["simulate", "thirty-one", "--option", "=3"], ["simulate", "thirty-one", "--option", ""],
    ["simulate", "thirty-one", "--games", "many"], ["simulate", "thirty-one", "--seed", "x"],
    ["simulate", "thirty-one", "--players", "999999999999999999999"],
    ["play", "thirty-one", "--seat", "99999999999999999999"],
    ["play", "thirty-one", "--option", "lives=1.5"],
    ["score", "thirty-one"], ["nonsense-command"], ["check"], ["replay"],
    ["check", "--no-such-flag", "games"],
])
def test_usage_errors_exit_2(args: list[str]) -> None:
    r = run_cli(*args, stdin="q\n")
    assert_no_traceback(r)
    assert r.returncode == 2, output(r)
    assert r.stderr.strip()


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    long_name = "a" * 5000
    for args in (["check", long_name], ["test", long_name], ["score", long_name, "AS"],
                 ["simulate", long_name], ["play", long_name], ["replay", long_name],
                 ["check", str(tmp_path / "none.yaml")]):
        r = run_cli(*args, stdin="q\n")
        assert_no_traceback(r)
        assert r.returncode == 2, (args[0], output(r))
    d = tmp_path / "dir.yaml"
    d.mkdir()
    r = run_cli("score", str(d), "AS")
    assert_no_traceback(r)
    assert r.returncode in (1, 2)


@pytest.mark.parametrize("content", [
    b"", b"\xff\xfe\x00g\x00a\x00m\x00e", b"game: [", b"- 1\n- 2\n",
    b"game: no-such-game\nplayers: 3\n", b"game: thirty-one\nplayers: 99\n",
    b"game: thirty-one\nplayers: 3\nmoves: [\"9: draw stock\"]\n",
    b"game: thirty-one\nplayers: 3\nmoves: [\"nonsense\"]\n",
    b"game: thirty-one\nplayers: 3\ndeal: {hand: [[ZZ]]}\n",
    b"game: thirty-one\nplayers: 3\noptions: {lives: many}\n",
    b"game: thirty-one\nplayers: 3\nstart: {nothing: 1}\n",
    b"game: /etc/passwd\nplayers: 3\n", b"game: !!python/name:os.system\n",
])
def test_bad_scenario_files_exit_1(tmp_path: Path, content: bytes) -> None:
    p = tmp_path / "bad.scenario.yaml"
    p.write_bytes(content)
    r = run_cli("test", str(p))
    assert_no_traceback(r)
    assert "internal error" not in r.stdout + r.stderr, output(r)
    assert r.returncode == 1, output(r)
    assert "0 passed, 1 failed" in r.stdout
