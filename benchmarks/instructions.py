"""Instructions a random decision, counted by valgrind: a figure the machine's load cannot move.

    python benchmarks/instructions.py GAME...        # e.g. thirty-one texas-holdem

For each bundled game: the CPU instructions of 3,000 and of 6,000 random decisions (each after
2,000 decisions that warm the memoised functions, all at the game's default number of players,
new games as needed), each counted by ``valgrind --tool=cachegrind`` over a fresh interpreter;
their difference over 3,000 is the cost of a decision, loading and start-up left out. Runs of
one tree differ by about ±1% (a full garbage collection falls in or out of the window).
Needs valgrind on the PATH. ``--play N`` is the driver the counts run (one process per count).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def play(game_path: str, n: int) -> None:
    import rulelang

    game = rulelang.load(game_path, allow_any_path=True)

    def run(k: int) -> None:
        rng = random.Random(1)
        seed = 1
        s = game.new_state(None, seed=seed, record=False)
        while k > 0:
            if s.is_over():
                seed += 1
                s = game.new_state(None, seed=seed, record=False)
                continue
            s.apply_index(int(rng.random() * s.num_moves()))
            k -= 1

    run(2000)
    run(n)


def valgrind_count(script: str, *args: str) -> int:
    """Instructions valgrind counts for ``python SCRIPT ARGS...`` in a fresh interpreter."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(ROOT))
    p = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, script, *args],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    m = re.search(r"I\s+refs:\s+([\d,]+)", p.stderr)
    if m is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{p.stderr[-1000:]}")
    return int(m.group(1).replace(",", ""))


def count(game: str, n: int) -> int:
    return valgrind_count(__file__, "--play", str(ROOT / "games" / f"{game}.yaml"), str(n))


def main() -> None:
    if sys.argv[1:2] == ["--play"]:
        play(sys.argv[2], int(sys.argv[3]))
        return
    for game in sys.argv[1:]:
        print(f"{game} {(count(game, 6000) - count(game, 3000)) // 3000}", flush=True)


if __name__ == "__main__":
    main()
