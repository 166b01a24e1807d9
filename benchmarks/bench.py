"""``make bench``: rulelang against a hand-written Thirty-One, side by side in one process.

Prints decisions per second and rounds per second of both with random agents on 4-player
Thirty-One and their ratio, then ``rulelang check`` time per bundled game in a cold process,
``rulelang test games`` time, simulate with one worker against two, and peak memory.
``--smoke`` runs everything tiny, so that CI keeps the script from rotting.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import handwritten31  # noqa: E402


def run_rulelang(games: int, players: int, seed: int) -> tuple[int, int, float]:
    import rulelang

    game = rulelang.load("thirty-one")
    rng = random.Random(seed)
    decisions = rounds = 0
    t0 = time.perf_counter()
    for i in range(games):
        s = game.new_state(players, seed=seed * 100_003 + i, record=False)
        while not s.is_over():
            s.apply_index(int(rng.random() * s.num_moves()))
        decisions += s.decisions
        rounds += s.round
    return decisions, rounds, time.perf_counter() - t0


def search_costs(games: int) -> dict[str, float]:
    """What a search bot pays: one ``clone()``, one ``determinize()`` (a sample of the hidden
    cards), and the decisions per second of one greedy seat against three random ones."""
    import timeit

    import rulelang
    from rulelang import sim

    game = rulelang.load("thirty-one")
    s = game.new_state(4, seed=3, record=False)
    for _ in range(3):
        s.apply_index(0)
    n = 2000
    clone_us = timeit.timeit(s.clone, number=n) / n * 1e6
    rng = random.Random(1)
    det_us = timeit.timeit(lambda: s.determinize(s.current_player(), rng), number=n) / n * 1e6
    t0 = time.perf_counter()
    d = sum(sim.play_one(game, 4, ["greedy", "random", "random", "random"], 0, i)["decisions"]
            for i in range(games))
    return {"clone_us": round(clone_us, 2), "determinize_us": round(det_us, 2),
            "greedy_table_decisions_per_sec": round(d / (time.perf_counter() - t0))}


def run_hand(games: int, players: int, seed: int) -> tuple[int, int, float]:
    t0 = time.perf_counter()
    r = handwritten31.play_games(games, players, seed)
    return r["decisions"], r["rounds"], time.perf_counter() - t0


def cli(*args: str) -> float:
    exe = str(Path(sys.executable).with_name("rulelang"))
    t0 = time.perf_counter()
    subprocess.run([exe, *args], cwd=ROOT, check=False, capture_output=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, for CI")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", action="store_true",
                    help="only profile rulelang's random games (cProfile, by cumulative time)")
    a = ap.parse_args()
    if a.profile:
        import cProfile
        import pstats

        run_rulelang(50, 4, 2)  # warm the memo caches first
        prof = cProfile.Profile()
        prof.runcall(run_rulelang, 300, 4, 1)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        return
    games = 20 if a.smoke else a.games
    out: dict[str, object] = {}

    hd, hr, hs = run_hand(games * (1 if a.smoke else 10), 4, 1)
    rd, rr, rs = run_rulelang(games, 4, 1)
    out["handwritten"] = {"decisions_per_sec": round(hd / hs), "rounds_per_sec": round(hr / hs)}
    out["rulelang"] = {"decisions_per_sec": round(rd / rs), "rounds_per_sec": round(rr / rs)}
    out["ratio_decisions"] = round((rd / rs) / (hd / hs), 4)
    out["ratio_rounds"] = round((rr / rs) / (hr / hs), 4)
    out["search"] = search_costs(2 if a.smoke else 20)

    checks = {}
    for f in sorted((ROOT / "games").glob("*.yaml")):
        checks[f.stem] = round(cli("check", str(f.relative_to(ROOT))), 3)
    out["check_seconds_cold"] = checks
    out["test_games_seconds"] = round(cli("test", "games"), 2)
    sim_games = "40" if a.smoke else "6000"
    w1 = cli("simulate", "thirty-one", "--games", sim_games, "--json", "--workers", "1")
    w2 = cli("simulate", "thirty-one", "--games", sim_games, "--json", "--workers", "2")
    out["simulate_workers"] = {"games": int(sim_games), "w1_seconds": round(w1, 2),
                               "w2_seconds": round(w2, 2), "speedup": round(w1 / w2, 2)}
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    if a.json:
        print(json.dumps(out))
        return
    print(f"4-player Thirty-One, random agents ({games} rulelang games)")
    print(f"  hand-written: {out['handwritten']}")
    print(f"  rulelang:     {out['rulelang']}")
    print(f"  ratio (decisions/sec): {out['ratio_decisions']}")
    print(f"  ratio (rounds/sec):    {out['ratio_rounds']}")
    print(f"search bot costs: {out['search']}")
    print("rulelang check, cold process (s):")
    for k, v in checks.items():
        print(f"  {k}: {v}")
    print(f"rulelang test games: {out['test_games_seconds']} s")
    print(f"simulate workers: {out['simulate_workers']}")
    print(f"peak memory of this process: {out['peak_rss_mb']} MB")


if __name__ == "__main__":
    main()
