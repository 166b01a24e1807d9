"""Run fuzz cases: a mutated rules file through `rulelang check`, in process, with a time bound.

``check_case`` calls the CLI's own ``check`` command function (the code path of
``rulelang check FILE``) with its output captured, and judges the answer:

- exit 0 and no error lines, or exit 1 and every error line located as
  ``PATH:LINE:COL: error: MESSAGE`` — fine;
- any Python exception escaping (a traceback), any other exit code, an error line that is not
  located, or more than ``timeout`` seconds — a failure, kept for a report.

``simulate_case`` goes further for a mutated file that checks clean: it plays a few short games
with random bots (and reads every seat's view), where only a ``RulesError`` may come out, and
every card must stay in exactly one zone; then runs ``rulelang simulate --record``, ``replay``
and ``play`` (fed garbage, markup and moves on its input) in process, whose output must never
carry a terminal control character (text from a rules file is neutralised before it is printed).
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import signal
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .mutate import mutate

ROOT = Path(__file__).resolve().parent.parent
LOCATED = re.compile(r"^(.+?):(\d+):(\d+): error: \S")
# what must never reach a terminal: C0 controls but newline, DEL, C1 controls (ESC among them)
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


class Hang(BaseException):
    """Raised by the alarm when a case runs past its time bound. Not an ``Exception``: the
    engine turns the Python errors raised while rules text runs into located rules errors, and
    a time bound must not become one of them."""


@dataclass
class Result:
    case: str
    outcome: str  # ok | errors | crash | hang | unlocated | exit | terminal
    seconds: float
    detail: str = ""
    mutators: list[str] = field(default_factory=list)
    base: str = ""

    @property
    def bad(self) -> bool:
        return self.outcome in ("crash", "hang", "unlocated", "exit", "terminal")


def bundled_rules() -> list[Path]:
    games = ROOT / "games"
    return sorted(p for p in games.glob("*.yaml") if not p.name.endswith(".scenario.yaml"))


@contextlib.contextmanager
def time_bound(seconds: float) -> Any:
    """Raise ``Hang`` in the main thread after ``seconds`` of this process's CPU time (Unix;
    no bound elsewhere). CPU time, not wall time: the machines that run the fuzzer are shared,
    and a case must not count as a hang because its neighbours were busy."""
    if not hasattr(signal, "setitimer") or seconds <= 0:
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise Hang(f"more than {seconds:g} s of CPU")

    old = signal.signal(signal.SIGPROF, on_alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def run_check(path: Path) -> tuple[int, str, str]:
    """``rulelang check PATH`` in process: (exit code, stdout, stderr)."""
    import typer

    from rulelang import cli

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            cli.check([str(path)], as_json=False, allow_any_path=False)
        except typer.Exit as e:
            code = e.exit_code
    return code, out.getvalue(), err.getvalue()


def judge_text(stdout: str, stderr: str) -> str:
    """What is wrong with a command's output as a terminal would show it ('' if nothing)."""
    for name, text in (("stdout", stdout), ("stderr", stderr)):
        m = CONTROL.search(text)
        if m:
            return (f"a control character {m.group()!r} in {name}: "
                    f"{text[max(0, m.start() - 80): m.end() + 40]!r}")
    return ""


def judge_check(code: int, stdout: str, stderr: str) -> tuple[str, str]:
    """(outcome, detail) for the output of one ``check``."""
    raw = judge_text(stdout, stderr)
    if raw:
        return "terminal", raw
    if code not in (0, 1):
        return "exit", f"exit code {code}\n{stderr}"
    lines = [ln for ln in stderr.splitlines() if ": error: " in ln or ln.startswith("error:")]
    if code == 0:
        if lines:
            return "exit", f"exit 0 with errors:\n{stderr}"
        return "ok", ""
    if not lines:
        return "unlocated", f"exit 1 without an error line:\n{stderr}"
    bad = [ln for ln in lines if not LOCATED.match(ln)]
    if bad:
        return "unlocated", "\n".join(bad)
    return "errors", lines[0]


def check_case(path: Path, timeout: float = 10.0) -> tuple[str, str, float]:
    """Check one file; (outcome, detail, seconds)."""
    t0 = time.perf_counter()
    try:
        with time_bound(timeout):
            code, out, err = run_check(path)
        outcome, detail = judge_check(code, out, err)
    except Hang as e:
        outcome, detail = "hang", str(e)
    except BaseException as e:  # a traceback the user would have seen
        if isinstance(e, KeyboardInterrupt):
            raise
        outcome, detail = "crash", "".join(traceback.format_exception(e))
    return outcome, detail, time.perf_counter() - t0


def simulate_case(path: Path, games: int = 2, timeout: float = 30.0, seed: int = 0,
                  max_decisions: int = 400) -> tuple[str, str]:
    """Play a few short games of a rules file that checks clean; (outcome, detail)."""
    from rulelang import RulesError, load
    from rulelang.agents import make_agent

    try:
        with time_bound(timeout):
            game = load(str(path))
            for i in range(games):
                # small allowances: a hostile file may spend each one to the end
                state = game.new_state(None, seed=seed + i, max_round_steps=20_000,
                                       max_game_steps=200_000, max_work=200_000)
                rand = [make_agent("random", seed + p) for p in range(state.n)]
                greedy = [make_agent("greedy", seed + p, 200_000) for p in range(state.n)]
                k = 0
                while not state.is_over() and k < max_decisions:
                    p = state.current_player()
                    if p is None:
                        if state.status == "play":
                            return "crash", "the round is on but no seat is to move"
                        state.next_round()
                        continue
                    if k % 7 == 0:
                        for v in range(state.n):
                            state.view(v)
                    bots = greedy if k < 40 and i == 0 else rand  # look-ahead: clones
                    state.apply(bots[p].choose(state, p))
                    k += 1
                    problems = state.check_invariants()
                    if problems:
                        return "crash", f"invariant broken after {k} decisions: {problems[0]}"
    except Hang as e:
        return "hang", f"simulate: {e}"
    except RulesError:
        return "ok", ""
    except RecursionError as e:
        return "crash", "".join(traceback.format_exception(e))[-3000:]
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        return "crash", "".join(traceback.format_exception(e))
    return "ok", ""


# what a fuzzed player types at the prompt: garbage, markup, control characters, help, numbers
PLAY_INPUT = ["", "?", "help", "[/yellow]", "[bold]x", "\x1b[2J", "1", "2", "0", "-1", "99",
              "draw stock", "zz", "1", "1", "1", "1", "1", "1", "1", "1", "1", "1"]


def run_command(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    """One ``rulelang`` command in process, as ``main()`` runs it: (exit code, stdout, stderr).

    A ``RulesError`` becomes its message and exit 1 or 2 as in ``main``; any other exception
    escapes (a traceback the user would have seen)."""
    import sys

    from rulelang import cli
    from rulelang.errors import RulesError, UsageError

    out, err = io.StringIO(), io.StringIO()
    old_in = sys.stdin
    sys.stdin = io.StringIO(stdin)
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                cli.app(args=args, prog_name="rulelang", standalone_mode=True)
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except RulesError as e:
                print(e.render(), file=sys.stderr)
                code = 2 if isinstance(e, UsageError) else 1
    finally:
        sys.stdin = old_in
    return code, out.getvalue(), err.getvalue()


def commands_case(path: Path, seed: int, workdir: Path) -> tuple[str, str]:
    """``simulate --record``, ``replay`` and ``play`` on a file that checks clean:
    (outcome, detail). Exit 0 or 1 with no traceback and no control character is fine."""
    log = workdir / "fuzz-log.jsonl"
    runs = [
        ["simulate", str(path), "--games", "1", "--seed", str(seed), "--agents", "greedy,random",
         "--max-steps", "2000", "--max-work", "200000", "--bot-work", "200000",
         "--record", str(log), "--check"],
        ["replay", str(log)],
        ["play", str(path), "--seed", str(seed), "--agents", "greedy", "--bot-work", "100000",
         "--max-work", "200000", "--max-steps", "2000"],
    ]
    for args in runs:
        if args[0] == "replay" and not log.exists():
            continue
        code, out, err = run_command(args, "\n".join(PLAY_INPUT * 2) + "\n")
        if code not in (0, 1):
            return "exit", f"rulelang {' '.join(args)}: exit {code}\n{err[-2000:]}"
        raw = judge_text(out, err)
        if raw:
            return "terminal", f"rulelang {' '.join(args)}: {raw}"
        if "internal error" in err:
            return "crash", f"rulelang {' '.join(args)}: {err[-2000:]}"
    return "ok", ""


def make_case(seed: int, i: int, bases: list[Path]) -> tuple[Path, str | bytes, list[str]]:
    """The i-th case of a run: a base game and its mutation, from (seed, i) alone."""
    rng = random.Random(f"{seed}:{i}")
    base = bases[rng.randrange(len(bases))]
    text = base.read_text(encoding="utf-8")
    data, used = mutate(text, rng)
    return base, data, used


def run_case(seed: int, i: int, bases: list[Path], workdir: Path, timeout: float = 10.0,
             simulate: bool = False, commands: bool = True) -> Result:
    base, data, used = make_case(seed, i, bases)
    path = workdir / base.name
    if isinstance(data, str):
        try:
            raw = data.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: write it as the bytes it would be
            raw = data.encode("utf-8", "surrogatepass")
    else:
        raw = data
    path.write_bytes(raw)
    outcome, detail, secs = check_case(path, timeout)
    if outcome == "ok" and simulate:
        t0 = time.perf_counter()
        s_out, s_detail = simulate_case(path, timeout=timeout * 3, seed=i)
        if s_out == "ok" and commands:
            try:
                # three commands, each a whole game: a hostile file may legitimately spend
                # every allowance of every step (each small here) in each
                with time_bound(timeout * 6):
                    s_out, s_detail = commands_case(path, i, workdir)
            except Hang as e:
                s_out, s_detail = "hang", f"commands: {e}"
            except BaseException as e:
                if isinstance(e, KeyboardInterrupt):
                    raise
                s_out, s_detail = "crash", "".join(traceback.format_exception(e))[-3000:]
        secs = time.perf_counter() - t0 + secs
        if s_out != "ok":
            outcome, detail = s_out, s_detail
    return Result(f"{seed}:{i}", outcome, secs, detail, used, base.stem)
