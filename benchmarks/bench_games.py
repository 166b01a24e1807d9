"""Per bundled game, quickly: random decisions per CPU second and the CPU seconds of 1,000
random playouts from a mid-round state to the end of the round (by ``clone()``).

The same measures as ``bench.py``'s per-game rows (``bench_engine.every_game``,
``bench_engine.search_costs``), smaller, so that a change to the engine can be measured on
every game in about a minute::

    .venv/bin/python benchmarks/bench_games.py                 # every bundled game
    .venv/bin/python benchmarks/bench_games.py go-fish uno     # some
    .venv/bin/python benchmarks/bench_games.py --decisions 20000 --budget 30

Playouts stop once ``--budget`` CPU seconds are spent and the time is scaled to 1,000 (the
row says how many ran). ``--blocks N`` measures the playouts N times in the process, each
figure printed (PyPy's JIT warms up over the first)::

    .venv-pypy/bin/python benchmarks/bench_games.py hearts --blocks 3
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_engine
from measure import random_decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", help="game names (default: every bundled game)")
    ap.add_argument("--decisions", type=int, default=8000, help="random decisions a game")
    ap.add_argument("--budget", type=float, default=4.0,
                    help="CPU seconds of playouts a game before scaling to 1,000")
    ap.add_argument("--blocks", type=int, default=1,
                    help="times the 1,000 playouts are measured (each figure printed)")
    a = ap.parse_args()
    names = a.games or [p.stem for p in bench_engine.bundled_games()]
    print(f"{'game':28s} {'decisions/s':>11s}  1,000 playouts, CPU s (run; decisions each)")
    for name in names:
        game = bench_engine.load(bench_engine.ROOT / "games" / f"{name}.yaml")
        players = game.default_players
        random_decisions(game, players, 300, 98)  # warm the memos
        n, secs = random_decisions(game, players, a.decisions, 1)
        base = bench_engine.mid_round_state(game, players, 11)
        bench_engine.playouts(base, 5, False, 97, a.budget)
        figures = []
        for b in range(max(1, a.blocks)):
            pc, dc, kc = bench_engine.playouts(base, 1000, False, 1 + b, a.budget)
            figures.append(f"{pc * 1000 / kc:8.3f}")
        print(f"{name:28s} {round(n / secs):>11,}  {' '.join(figures)} "
              f"({kc} run; {dc / kc:.1f})", flush=True)


if __name__ == "__main__":
    main()
