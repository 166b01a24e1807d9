"""Instructions of one IS-MCTS decision, counted by valgrind: a figure the machine's load cannot
move (docs/agents.md, "eleventh session").

    python benchmarks/ismcts_instructions.py GAME... [--iterations N]    # default 200

The position and agent of ``benchmarks/ismcts_time.py`` (seed 3, three random decisions, then
``ISMCTSAgent(1, iterations=N).choose_index``); each count is ``valgrind --tool=cachegrind``
over a fresh interpreter, and the figure printed is the count with N iterations minus the count
with none (loading, the position and the guard's greedy judgement left out). ``--run GAME N``
is the driver the counts run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(name: str, iterations: int) -> None:
    import random

    import rulelang
    from rulelang.ismcts import ISMCTSAgent

    g = rulelang.load(str(ROOT / "games" / f"{name}.yaml"), allow_any_path=True)
    s = g.new_state(g.default_players, seed=3, record=False)
    rng = random.Random(3)
    k = 0
    while k < 3 or s.num_moves() < 2:
        s.apply_index(int(rng.random() * s.num_moves()))
        k += 1
    ISMCTSAgent(1, iterations=iterations).choose_index(s, s.current_player())


def count(name: str, iterations: int) -> int:
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(ROOT))
    p = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, __file__, "--run", name, str(iterations)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    m = re.search(r"I\s+refs:\s+([\d,]+)", p.stderr)
    if m is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{p.stderr[-1000:]}")
    return int(m.group(1).replace(",", ""))


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["--run"]:
        run(args[1], int(args[2]))
        return
    iterations = 200
    if "--iterations" in args:
        at = args.index("--iterations")
        iterations = int(args[at + 1])
        del args[at:at + 2]
    for name in args:
        print(f"{name} {count(name, iterations) - count(name, 0)}", flush=True)


if __name__ == "__main__":
    main()
