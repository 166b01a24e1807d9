"""Run fuzz cases: a mutated rules file through `rulelang check`, in process, with a time bound.

``check_case`` calls the CLI's own ``check`` command function (the code path of
``rulelang check FILE``) with its output captured, and judges the answer:

- exit 0 and no error lines, or exit 1 and every error line located as
  ``PATH:LINE:COL: error: MESSAGE`` — fine;
- any Python exception escaping (a traceback), any other exit code, an error line that is not
  located, or more than ``timeout`` seconds — a failure, kept for a report.

``simulate_case`` goes further for a mutated file that checks clean: it plays a few short games
with random bots (and reads every seat's view), where only a ``RulesError`` may come out, and
every card must stay in exactly one zone.
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


class Hang(Exception):
    """Raised by the alarm when a case runs past its time bound."""


@dataclass
class Result:
    case: str
    outcome: str  # ok | errors | crash | hang | unlocated | exit
    seconds: float
    detail: str = ""
    mutators: list[str] = field(default_factory=list)
    base: str = ""

    @property
    def bad(self) -> bool:
        return self.outcome in ("crash", "hang", "unlocated", "exit")


def bundled_rules() -> list[Path]:
    games = ROOT / "games"
    return sorted(p for p in games.glob("*.yaml") if not p.name.endswith(".scenario.yaml"))


@contextlib.contextmanager
def time_bound(seconds: float) -> Any:
    """Raise ``Hang`` in the main thread after ``seconds`` (Unix; no bound elsewhere)."""
    if not hasattr(signal, "setitimer") or seconds <= 0:
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise Hang(f"more than {seconds:g} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_check(path: Path) -> tuple[int, str, str]:
    """``rulelang check PATH`` in process: (exit code, stdout, stderr)."""
    import typer

    from rulelang import cli

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            cli.check([str(path)])
        except typer.Exit as e:
            code = e.exit_code
    return code, out.getvalue(), err.getvalue()


def judge_check(code: int, stdout: str, stderr: str) -> tuple[str, str]:
    """(outcome, detail) for the output of one ``check``."""
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
                state = game.new_state(None, seed=seed + i, max_round_steps=20_000,
                                       max_game_steps=200_000)
                rand = [make_agent("random", seed + p) for p in range(state.n)]
                greedy = [make_agent("greedy", seed + p) for p in range(state.n)]
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


def make_case(seed: int, i: int, bases: list[Path]) -> tuple[Path, str | bytes, list[str]]:
    """The i-th case of a run: a base game and its mutation, from (seed, i) alone."""
    rng = random.Random(f"{seed}:{i}")
    base = bases[rng.randrange(len(bases))]
    text = base.read_text(encoding="utf-8")
    data, used = mutate(text, rng)
    return base, data, used


def run_case(seed: int, i: int, bases: list[Path], workdir: Path, timeout: float = 10.0,
             simulate: bool = False) -> Result:
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
        secs += time.perf_counter() - t0
        if s_out != "ok":
            outcome, detail = s_out, s_detail
    return Result(f"{seed}:{i}", outcome, secs, detail, used, base.stem)
