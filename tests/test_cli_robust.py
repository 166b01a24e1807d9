"""The play prompt and the command line under bad input: Ctrl-C, EOF, garbage, huge numbers,
bad cards and options, missing and broken files — a clear message, the contract's exit code,
never a traceback. (The everyday cases are in test_cli.py; these are the hostile ones.)
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import rulelang
from rulelang.play import play_game

from .helpers import ROOT, RULELANG, assert_no_traceback, output, run_cli, write_variant


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


def cpu_seconds(pids: list[int]) -> float:
    """User+sys seconds the processes ``pids`` have used so far (Linux /proc; 0 if gone)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def default_sigint() -> None:
    """For a child that must answer Ctrl-C: a process started in the background by a shell
    without job control inherits SIGINT ignored, and Python then keeps ignoring it (as nohup
    wants); the suite may be started that way, the user's terminal never is."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_until_busy(proc: subprocess.Popen[str], seconds: float, workers: bool = False,
                    fallback: float = 3.0) -> None:
    """Wait until ``proc`` (or its worker processes) has used ``seconds`` of CPU: past its
    start-up and into the games, so that the Ctrl-C that follows lands there. Waiting for CPU
    time, not wall time, keeps this true on a loaded machine and cheap on a quiet one (a wall
    wait of 3-4 s spent ~10 s of CPU in simulations). Without /proc, ``fallback`` seconds."""
    if not Path(f"/proc/{proc.pid}/stat").exists():
        time.sleep(fallback)
        return
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if cpu_seconds(children(proc.pid) if workers else [proc.pid]) >= seconds:
            return
        time.sleep(0.05)


def communicate(proc: subprocess.Popen[str], group: bool = False) -> tuple[str, str]:
    """The output of ``proc`` after a Ctrl-C; if it does not end within 30 s the test fails
    and the process (with its group) is killed, not left running a 100,000-game simulation
    on a shared machine."""
    try:
        return proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        if group:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
        proc.communicate()
        raise


def test_play_sigint_in_a_real_terminal_session() -> None:
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    proc = subprocess.Popen([RULELANG, "play", "thirty-one", "--seed", "1"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=default_sigint)
    time.sleep(2.5)
    proc.send_signal(signal.SIGINT)
    out, err = communicate(proc)
    assert "Traceback" not in out + err
    assert proc.returncode in (0, 1, 130), (proc.returncode, out, err)


@pytest.mark.skipif(sys.platform == "win32", reason="signals")
def test_simulate_sigint_no_traceback() -> None:
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    proc = subprocess.Popen([RULELANG, "simulate", "ten-pennies", "--games", "100000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=default_sigint)
    wait_until_busy(proc, 1.5)
    proc.send_signal(signal.SIGINT)
    out, err = communicate(proc)
    assert "Traceback" not in out + err
    assert proc.returncode != 0


def test_simulate_with_workers_ctrl_c_in_a_terminal() -> None:
    # a terminal's Ctrl-C reaches the whole process group, workers included: only the
    # parent answers (exit 130), no worker prints a traceback, none is left running
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    proc = subprocess.Popen([RULELANG, "simulate", "thirty-one", "--games", "100000",
                             "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True,
                            preexec_fn=default_sigint)
    wait_until_busy(proc, 1.0, workers=True, fallback=4.0)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = communicate(proc, group=True)
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
    ["simulate", "thirty-one", "--workers", "100000"],
    ["simulate", "thirty-one", "--max-work", "0"], ["play", "thirty-one", "--max-work", "0"],
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
    # isdigit() is true for these, int() refuses them
    "game: thirty-one\nplayers: 3\nmoves: [\"²: draw stock\"]\n".encode(),
    "game: thirty-one\nplayers: 3\nmoves: [\"٣: draw stock\"]\n".encode(),
])
def test_bad_scenario_files_exit_1(tmp_path: Path, content: bytes) -> None:
    p = tmp_path / "bad.scenario.yaml"
    p.write_bytes(content)
    r = run_cli("test", str(p))
    assert_no_traceback(r)
    assert "internal error" not in r.stdout + r.stderr, output(r)
    assert r.returncode == 1, output(r)
    assert "0 passed, 1 failed" in r.stdout


# ---------------------------------------------------------------- a worker killed
@pytest.mark.skipif(sys.platform == "win32", reason="signals, fork")
def test_a_killed_worker_ends_the_run_with_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # the worker playing games 4 to 7 is killed as the OOM killer would (kill -9): the run
    # must end with an error naming those games, not wait for ever for their tally
    from rulelang import sim
    from rulelang.errors import RuntimeRulesError

    real = sim._worker

    def dying(args: tuple) -> Any:
        if args[5] == 4:  # the forked worker runs this copy of the module
            os.kill(os.getpid(), signal.SIGKILL)
        return real(args)

    monkeypatch.setattr(sim, "_worker", dying)

    def hung(_sig: int, _frame: Any) -> None:
        raise TimeoutError("the run waited for a dead worker")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    try:
        with pytest.raises(RuntimeRulesError) as info:
            sim.run("thirty-one", {"lives": 1}, 3, 12, ["random"] * 3, 0, workers=2)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert "worker process died (killed by signal 9" in info.value.message
    assert "games 4 to 7 of the run" in info.value.message
    # and a run whose workers live is the same as in one process
    one = sim.run("thirty-one", {"lives": 1}, 3, 12, ["random"] * 3, 0, workers=1)
    monkeypatch.setattr(sim, "_worker", real)
    two = sim.run("thirty-one", {"lives": 1}, 3, 12, ["random"] * 3, 0, workers=2)
    assert {k: v for k, v in one.items() if "sec" not in k} == \
        {k: v for k, v in two.items() if "sec" not in k}


# ---------------------------------------------------------------- where a run went wrong
BROKEN = ("extends: thirty-one\nphases:\n  draw:\n    actions:\n      knock:\n"
          "        when: \"knocker == none and size(hand[9]) > 0\"\n")


def assert_located_at_the_when(text: str, path: Path) -> None:
    assert f"{path}:6:15: error: hand[9]: there is no seat 9 at this table" in text, text
    assert "knocker == none and size(hand[9]) > 0" in text and "^" in text
    assert "Error" not in text.replace(": error:", ""), text


def test_simulate_names_the_game_and_its_seed(tmp_path: Path) -> None:
    p = tmp_path / "broken.yaml"
    p.write_text(BROKEN, encoding="utf-8")
    r = run_cli("simulate", str(p), "--players", "3", "--games", "2", "--seed", "7",
                "--workers", "2")
    assert_no_traceback(r)
    assert r.returncode == 1, output(r)
    assert_located_at_the_when(r.stderr, p)
    assert "(in game 0 of the run, whose own seed is" in r.stderr
    assert "simulate --seed 7 --games 1 plays it again)" in r.stderr


def test_play_and_test_name_the_seed(tmp_path: Path) -> None:
    p = tmp_path / "broken.yaml"
    p.write_text(BROKEN, encoding="utf-8")
    r = run_cli("play", str(p), "--players", "3", "--seed", "4", stdin="q\n")
    assert_no_traceback(r)
    assert r.returncode == 1, output(r)
    assert_located_at_the_when(r.stderr, p)
    assert "(in the game with seed 4; play --seed 4 deals it again)" in r.stderr
    s = tmp_path / "broken.scenario.yaml"
    s.write_text("game: broken.yaml\nplayers: 3\nseed: 9\nmoves:\n  - \"1: draw stock\"\n",
                 encoding="utf-8")
    r = run_cli("test", str(s))
    assert_no_traceback(r)
    assert r.returncode == 1, output(r)
    assert f"{s}: FAIL: the rules failed while the scenario ran" in r.stdout
    assert_located_at_the_when(r.stderr, p)
    assert "(in this scenario, seed 9)" in r.stderr


# ---------------------------------------------------------------- hostile text (issue 15)
# what must never reach a terminal: C0 controls but newline, DEL, C1 controls (ESC among them)
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
EIGHTS = ROOT / "games" / "crazy-eights.yaml"
# a name that is markup, clears the screen and sets the window's title
NASTY = r"Crazy [/bold] \e[2J\e]0;pwn\a [bold]Eights[/]"


def hostile_game(tmp_path: Path) -> Path:
    """Crazy Eights with control characters and rich markup in every text the commands print:
    the game's name, a counter, a global, a trigger (the round's ending) and an action's name;
    the action's argument is a list of numbers that are not card ids (99, -1, 1000)."""
    return write_variant(
        EIGHTS, tmp_path / "hostile.yaml",
        ("name: Crazy Eights", f'name: "{NASTY}"'),
        ("counters:\n  points: 0", 'counters:\n  points: 0\n  "z\\e[31m[/red]": 0'),
        ("  drew: false", '  drew: false\n  "g\\e[2J": 1'),
        ("    blocked: size(stock)", '    "bl\\e[1mocked[/x]": size(stock)'),
        ("    blocked:\n      - low", '    "bl\\e[1mocked[/x]":\n      - low'),
        ("      pass:\n", '      "od\\e[5md[/magenta]":\n        args: {xs: "[[99, -1, 1000]]"}\n'
                          "        when: size(stock) > 30\n"
                          "        do: log('\\e]0;title\\a')\n        next: play\n      pass:\n"),
    )


def assert_inert(text: str) -> None:
    m = CONTROL.search(text)
    assert m is None, f"{m.group()!r} reaches the terminal: {text[max(0, m.start() - 60):][:120]!r}"


def test_rules_text_reaches_simulate_inert(tmp_path: Path) -> None:
    path = hostile_game(tmp_path)
    r = run_cli("simulate", str(path), "--games", "2", "--players", "2")
    assert r.returncode == 0, output(r)
    assert_no_traceback(r)
    assert_inert(output(r))
    # shown, not obeyed: the markup as written, the control characters written out
    assert r"Crazy [/bold] \x1b[2J\x1b]0;pwn\x07 [bold]Eights[/]" in r.stdout, r.stdout
    assert r"mean change of z\x1b[31m[/red] per round" in r.stdout


def test_rules_text_and_typed_markup_reach_play_inert(tmp_path: Path) -> None:
    game = rulelang.load(str(hostile_game(tmp_path)))
    buf = io.StringIO()
    con = Console(file=buf, width=200, color_system=None)  # rich's defaults: markup on
    lines = ["?", "[/yellow]", "[bold]x[/]", "\x1b[2J", "\x9b31m", "99"] + ["1"] * 30 + ["q"]
    code = play_game(game, 2, 0, ["random"] * 2, 3, input_fn=feed(lines), console=con)
    out = buf.getvalue()
    assert code == 0
    assert_inert(out)
    assert r"Crazy [/bold] \x1b[2J\x1b]0;pwn\x07 [bold]Eights[/]" in out
    assert "'[/yellow]' is not a legal move" in out and r"'\x1b[2J' is not a legal move" in out
    # the move whose argument is a list of numbers that are not cards, listed and played
    assert r"od\x1b[5md[/magenta] 99 -1 1000" in out, out[-3000:]


def test_check_errors_show_control_characters_written_out(tmp_path: Path) -> None:
    # the source line under an error is the file's own text: a raw ESC in it is written out
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"name: [/bold]\x1b]0;title\x07\x1b[2J\nplayers: 2\n")
    r = run_cli("check", str(bad))
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    assert_inert(output(r))
    assert "    name: [/bold]\\x1b]0;title\\x07\\x1b[2J\n    ^\n" in r.stderr, r.stderr


def test_simulate_json_is_strict_and_an_overflowing_counter_is_located(tmp_path: Path) -> None:
    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in --json output")

    r = run_cli("simulate", str(EIGHTS), "--games", "2", "--players", "2", "--json")
    assert r.returncode == 0, output(r)
    assert json.loads(r.stdout, parse_constant=refuse)["games"] == 2
    # a float counter squared at every round overflows to infinity, then NaN
    grow = "      - big[w] = (big[w] + 2.5) * (big[w] + 2.5) * (big[w] + 2.5) * (big[w] + 2.5)"
    p = write_variant(EIGHTS, tmp_path / "grow.yaml",
                      ("counters:\n  points: 0", "counters:\n  points: 0\n  big: 0"),
                      ("      - points[w] += sum(hand_points(hand[p]) for p in players)",
                       "      - points[w] += sum(hand_points(hand[p]) for p in players)\n" + grow))
    r = run_cli("simulate", str(p), "--games", "3", "--players", "2", "--json",
                "--option", "target=1000")
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    assert "NaN" not in r.stdout and "Infinity" not in r.stdout
    line = 1 + p.read_text(encoding="utf-8").splitlines().index(grow)
    assert r.stderr.startswith(f"{p}:{line}:9: error: counter 'big' would become larger "
                               "than 10^30"), r.stderr
    # a start value that overflows is located at the counter
    p = write_variant(EIGHTS, tmp_path / "start.yaml", (
        "counters:\n  points: 0",
        "counters:\n  points: 0\n  big: " + " * ".join(["1000000000000000.0"] * 21)))
    r = run_cli("simulate", str(p), "--games", "1", "--json")
    assert r.returncode == 1 and r.stdout == "", output(r)
    line = 1 + p.read_text(encoding="utf-8").splitlines().index("  big: " + " * ".join(
        ["1000000000000000.0"] * 21))
    assert r.stderr.startswith(f"{p}:{line}:8: error: counter 'big' would become larger than "
                               "10^30 (infinity: the number overflowed)"), r.stderr


def test_score_json_is_strict(tmp_path: Path) -> None:
    p = write_variant(EIGHTS, tmp_path / "s.yaml", (
        "  hand_points(cards): sum(penalty[c.rank] for c in cards)",
        "  hand_points(cards): sum(penalty[c.rank] for c in cards) * "
        + " * ".join(["1000000000000000.0"] * 21) + " * 0.0"))
    r = run_cli("score", str(p), "AS", "--json")
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    assert "NaN" not in r.stdout and "not a number" in r.stderr


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400", "1e16"])
def test_an_option_is_a_finite_number(value: str) -> None:
    from rulelang.errors import UsageError
    from rulelang.options import coerce_option

    with pytest.raises(UsageError, match="from -10\\^15 to 10\\^15"):
        coerce_option("rate", value, {"default": 1.5})
    if value == "nan":  # which every range test lets through
        with pytest.raises(UsageError, match="from -10\\^15 to 10\\^15"):
            coerce_option("rate", value, {"default": 1.5, "min": 0.5, "max": 2.5})
    assert coerce_option("rate", "2.5", {"default": 1.5}) == 2.5


def test_record_a_list_of_non_card_numbers_and_replay_it(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    r = run_cli("simulate", str(hostile_game(tmp_path)), "--games", "2", "--players", "2",
                "--record", str(log))
    assert r.returncode == 0, output(r)
    assert r"od\u001b[5md[/magenta] 99 -1 1000" in log.read_text(encoding="utf-8")
    r = run_cli("replay", str(log))
    assert r.returncode == 0, output(r)
    assert_inert(output(r))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_record_to_a_full_disk_is_a_clean_error() -> None:
    for games in ("1", "300"):  # the error at the close, or in the middle of the run
        r = run_cli("simulate", "thirty-one", "--games", games, "--record", "/dev/full",
                    "--json", "--option", "lives=1")
        assert_no_traceback(r)
        assert r.returncode == 2, output(r)
        assert r.stderr == "error: --record: cannot write /dev/full: No space left on device\n"


def test_a_heuristic_that_is_no_number_is_a_located_error(tmp_path: Path) -> None:
    # the greedy bot added float(heuristic(p)) up: a list was a TypeError out of float()
    old = '  heuristic(p): "-20 * size(hand[p]) - sum(penalty[c.rank] for c in hand[p] if ' \
          "c.rank != '8')\""
    typed = write_variant(EIGHTS, tmp_path / "typed.yaml", (old, '  heuristic(p): "[1, 2]"'))
    r = run_cli("check", str(typed))
    assert r.returncode == 1 and "must compute a number, not list[int]" in r.stderr, output(r)
    untyped = write_variant(EIGHTS, tmp_path / "any.yaml",
                            (old, '  heuristic(p): "first([[1], 2])"'))
    r = run_cli("simulate", str(untyped), "--games", "1", "--agents", "greedy", "--players", "2")
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    line = 1 + untyped.read_text(encoding="utf-8").splitlines().index(
        '  heuristic(p): "first([[1], 2])"')
    assert r.stderr.startswith(f"{untyped}:{line}:3: error: the heuristic 'heuristic' "
                               "computed [1], not a number"), r.stderr
