"""CPU seconds of one IS-MCTS decision of 1,000 iterations, per bundled game (docs/agents.md).

    python benchmarks/ismcts_time.py thirty-one gin-rummy      # or no names: every game
    python benchmarks/ismcts_time.py --repeat 3 go-fish        # 3 decisions, each printed

The position: the game at its default number of players, seed 3, after three random
decisions (more until the seat to move has a choice), moves drawn by ``random.Random(3)``;
the agent: ``ISMCTSAgent(1, iterations=1000)``, its defaults otherwise (greedy playouts).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def position(name: str) -> object:
    """The searched position: seed 3, the first decision with two moves or more after three
    random ones, at the game's default number of players."""
    import rulelang

    g = rulelang.load(str(ROOT / "games" / f"{name}.yaml"), allow_any_path=True)
    s = g.new_state(g.default_players, seed=3, record=False)
    rng = random.Random(3)
    k = 0
    while k < 3 or s.num_moves() < 2:
        s.apply_index(int(rng.random() * s.num_moves()))
        k += 1
    return s


def decision_seconds(name: str, iterations: int = 1000) -> float:
    from rulelang.ismcts import ISMCTSAgent

    s: Any = position(name)
    agent = ISMCTSAgent(1, iterations=iterations)
    t = time.process_time()
    agent.choose_index(s, s.current_player())
    return time.process_time() - t


def main() -> None:
    args = sys.argv[1:]
    repeat = 1
    if args[:1] == ["--repeat"] and len(args) > 1 and args[1].isdigit():
        repeat, args = max(1, int(args[1])), args[2:]  # (PyPy's JIT warms over the first)
    names = args or sorted(p.stem for p in (ROOT / "games").glob("*.yaml"))
    for name in names:
        secs = " ".join(f"{decision_seconds(name):6.2f}" for _ in range(repeat))
        print(f"{name:28s} {secs} s", flush=True)


if __name__ == "__main__":
    main()
