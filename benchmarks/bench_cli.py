"""The command-line rows of the suite: ``rulelang check`` cold, ``rulelang test``, and
``simulate`` with one worker against two.

Each command runs in a child process; its cost is the child's CPU time (user + system, from
``getrusage``), which a busy neighbour does not inflate. Worker scaling is the one figure that
CPU time cannot show (two workers do the same work, on two cores), so it is wall-clock time,
the one- and two-worker runs alternated and the median of their ratios kept; on a loaded
machine it says more about the neighbours than about rulelang.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from measure import children_cpu

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> tuple[float, float, str]:
    """Run ``rulelang ARGS`` from the repository's root: (CPU seconds, wall seconds, stdout)."""
    exe = str(Path(sys.executable).with_name("rulelang"))
    c0, w0 = children_cpu(), time.perf_counter()
    p = subprocess.run([exe, *args], cwd=ROOT, check=False, capture_output=True, text=True)
    wall = time.perf_counter() - w0
    if p.returncode != 0:
        raise RuntimeError(f"rulelang {' '.join(args)} failed: {p.stderr[-500:]}")
    return children_cpu() - c0, wall, p.stdout


def check_cold(paths: list[Path], repeat: int) -> dict[str, float]:
    """CPU seconds of ``rulelang check FILE`` in a fresh process (starting Python, importing,
    parsing, checking, compiling), the median of ``repeat`` runs, per file."""
    out = {}
    for p in paths:
        times = [run("check", str(p.relative_to(ROOT)))[0] for _ in range(repeat)]
        out[p.stem] = round(statistics.median(times), 3)
    return out


def test_scenarios(paths: list[str]) -> dict[str, Any]:
    cpu_s, wall, stdout = run("test", *paths)
    last = stdout.strip().splitlines()[-1] if stdout.strip() else ""
    return {"paths": paths, "cpu_s": round(cpu_s, 2), "wall_s": round(wall, 2),
            "result": last}


def without_timings(v: Any) -> Any:
    """``v`` with every key that contains ``sec`` left out, at any depth (seconds, rates)."""
    if isinstance(v, dict):
        return {k: without_timings(x) for k, x in v.items() if "sec" not in k}
    if isinstance(v, list):
        return [without_timings(x) for x in v]
    return v


def workers_scaling(game: str, games: int, rounds: int) -> dict[str, Any]:
    """``simulate GAME --games N --json`` with ``--workers 1`` and ``--workers 2``, alternated
    ``rounds`` times: wall seconds, children's CPU seconds, the median wall-time speedup, and
    whether the statistics are identical apart from the keys that contain ``sec``."""
    base = ["simulate", game, "--games", str(games), "--json", "--seed", "1"]
    w1: list[tuple[float, float]] = []
    w2: list[tuple[float, float]] = []
    outputs: dict[int, set[str]] = {1: set(), 2: set()}
    for r in range(rounds):
        order = (1, 2) if r % 2 == 0 else (2, 1)
        for w in order:
            cpu_s, wall, stdout = run(*base, "--workers", str(w))
            (w1 if w == 1 else w2).append((cpu_s, wall))
            outputs[w].add(json.dumps(without_timings(json.loads(stdout)), sort_keys=True))
    speedups = [a[1] / b[1] for a, b in zip(w1, w2) if b[1] > 0]
    identical = len(outputs[1]) == 1 and outputs[1] == outputs[2]
    return {
        "game": game, "games": games, "rounds": rounds,
        "w1_wall_s": round(statistics.median(w for _, w in w1), 2),
        "w2_wall_s": round(statistics.median(w for _, w in w2), 2),
        "w1_cpu_s": round(statistics.median(c for c, _ in w1), 2),
        "w2_cpu_s": round(statistics.median(c for c, _ in w2), 2),
        "speedup": round(statistics.median(speedups), 2) if speedups else None,
        "speedups": [round(x, 2) for x in speedups],
        "identical_statistics": identical,
    }
