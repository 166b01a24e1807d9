"""``make soak``: many checked games of every bundled game (not run in CI).

For each game: random bots, ``simulate --check`` (every card in exactly one zone and every
``conserved:`` sum unchanged after every decision), in chunks until ``--games`` games or
``--seconds`` seconds, whichever comes first. Prints one line of figures per game; exit 1 on
any violation or error. The full soak is ``--games 100000 --seconds 3600``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fuzz.soak", description=__doc__)
    ap.add_argument("--games", type=int, default=100_000, help="games per bundled game")
    ap.add_argument("--seconds", type=float, default=3600, help="time per bundled game")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("games_", nargs="*", metavar="GAME", help="only these games")
    a = ap.parse_args(argv)

    import rulelang
    from rulelang import sim
    from rulelang.errors import RulesError

    paths = sorted(p for p in (ROOT / "games").glob("*.yaml")
                   if not p.name.endswith(".scenario.yaml"))
    if a.games_:
        paths = [p for p in paths if p.stem in a.games_]
    failed = 0
    for path in paths:
        game = rulelang.load(str(path))
        n = game.default_players
        t0 = time.perf_counter()
        done = decisions = rounds = violations = 0
        problems: list[str] = []
        seed = a.seed
        while done < a.games and time.perf_counter() - t0 < a.seconds:
            left = a.seconds - (time.perf_counter() - t0)
            rate = done / max(time.perf_counter() - t0, 1e-9)  # games per second so far
            k = min(a.chunk, a.games - done, max(2, int(rate * left / 2)) if done else 4)
            try:
                s = sim.run(str(path), {}, n, k, ["random"] * n, seed, a.workers, check=True)
            except RulesError as e:
                problems.append(f"seed {seed}: {e.render()}")
                violations += 1
                break
            seed += 1  # each chunk is a run of its own seed: its games differ from the others'
            done += s["games"]
            decisions += s["decisions"]
            rounds += s["rounds"]
            violations += s["invariant_violations"]
            problems.extend(s.get("problems", []))
        secs = time.perf_counter() - t0
        print(f"{path.stem:28} {done:7d} games {rounds:9d} rounds {decisions:11d} decisions "
              f"{violations:3d} violations {secs:8.1f} s ({done / secs:7.1f} games/s)",
              flush=True)
        for p in problems[:5]:
            print(f"    {p}")
        failed += violations > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
