"""Shared helpers for the rulelang test suite: paths, and running the CLI in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from . import forkcli

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
THIRTY_ONE = GAMES / "thirty-one.yaml"
BIN = Path(sys.executable).parent
RULELANG = str(BIN / "rulelang")


def rules_files() -> list[Path]:
    """Every rules file of games/ (not scenarios), as found when the tests are collected."""
    return sorted(p for p in GAMES.glob("*.yaml") if not p.name.endswith(".scenario.yaml"))


# the values that options setting a match's length are lowered to (never raised), within the
# option's declared range, to keep random matches short (tests/test_simulation.py says why)
SHORT = {"lives": 2, "tokens": 1, "chips": 10, "hands": 3, "max_turns": 30, "target": 0}


def fresh_load(name: str, options: dict[str, Any] | None = None) -> Any:
    """A game compiled afresh, not the run's shared compilation of it (tests/conftest.py):
    for a test that changes the compiled game."""
    from rulelang.build import build_game
    from rulelang.rules import load_rules

    return build_game(load_rules(name), options)


def short_options(path: Path) -> dict[str, Any]:
    """The options of ``path`` lowered to SHORT (only those that change)."""
    import rulelang

    specs = rulelang.load(str(path)).option_specs
    out: dict[str, Any] = {}
    for name, spec in specs.items():
        default = spec.get("default")
        if name in SHORT and isinstance(default, int) and not isinstance(default, bool):
            v = min(default, SHORT[name])
            v = max(v, spec.get("min", v))
            if v != default:
                out[name] = v
    return out


def run_cli(*args: str, stdin: str | None = None, cwd: Path | str | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``rulelang ARGS...`` in a process of its own and capture its output (stdin empty
    unless given): a fork of a process that has imported the CLI (tests/forkcli.py), or with
    RULELANG_CLI_EXEC=1 a fresh interpreter."""
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    env["NO_COLOR"] = "1"
    env["TERM"] = "dumb"
    if forkcli.enabled():  # its own process all the same, without the start-up (forkcli.py)
        return forkcli.run(RULELANG, list(args), stdin if stdin is not None else "",
                           str(cwd) if cwd is not None else None, env, timeout)
    return subprocess.run(
        [RULELANG, *args], input=stdin if stdin is not None else "", capture_output=True,
        text=True, cwd=str(cwd) if cwd is not None else None, timeout=timeout, env=env,
    )


def output(r: subprocess.CompletedProcess[str]) -> str:
    return r.stdout + r.stderr


def assert_no_traceback(r: subprocess.CompletedProcess[str]) -> None:
    text = output(r)
    assert "Traceback" not in text, text


def write_variant(src: Path, dest: Path, *subs: tuple[str, str]) -> Path:
    """A copy of ``src`` with each (old, new) replaced once; each ``old`` must occur once."""
    text = src.read_text(encoding="utf-8")
    for old, new in subs:
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {src}"
        text = text.replace(old, new)
    dest.write_text(text, encoding="utf-8")
    return dest
