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

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run(name: str, iterations: int) -> None:
    from ismcts_time import position

    from rulelang.ismcts import ISMCTSAgent

    s: Any = position(name)
    ISMCTSAgent(1, iterations=iterations).choose_index(s, s.current_player())


def count(name: str, iterations: int) -> int:
    from instructions import valgrind_count

    return valgrind_count(__file__, "--run", name, str(iterations))


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
