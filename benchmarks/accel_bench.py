"""The compiled path against pure Python: the same measures in alternating processes.

    .venv/bin/python benchmarks/accel_bench.py [--pairs 3] [--seconds 2] [--json]

Needs the compiled modules in place (``make accel``). Runs ``--pairs`` pairs of child
processes, one compiled and one with ``RULELANG_PURE=1`` (pure Python), alternating which goes
first; each child measures, in CPU time (``time.process_time``), the hand-written Thirty-One and
rulelang's Thirty-One side by side (the ratio line of ``bench.py``), then decisions per second
of random agents (``state.apply_index(int(rng.random() * state.num_moves()))``) on Tonk, Ten
Pennies and Greek 31. Prints each pair and the medians, and the speed-up compiled / pure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("thirty-one", "tonk", "ten-pennies", "greek-31")


def decisions_per_sec(name: str, seconds: float, seed: int = 1) -> float:
    """Random agents on ``name`` for about ``seconds`` of CPU time (whole games)."""
    import rulelang

    game = rulelang.load(name)
    players = max(game.min_players, min(4, game.max_players))
    rng = random.Random(seed)
    decisions, i = 0, 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        s = game.new_state(players, seed=seed * 100_003 + i, record=False)
        while not s.is_over():
            s.apply_index(int(rng.random() * s.num_moves()))
        decisions += s.decisions
        i += 1
    return decisions / (time.process_time() - t0)


def hand_per_sec(seconds: float) -> float:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import handwritten31

    decisions = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        decisions += handwritten31.play_games(2000, 4, 1)["decisions"]
    return decisions / (time.process_time() - t0)


def child(seconds: float) -> dict[str, float]:
    import rulelang

    for name in GAMES:  # load (and warm) every game before timing
        decisions_per_sec(name, 0.05, seed=7)
    out = {"compiled": len(rulelang.accelerated()), "handwritten": hand_per_sec(seconds)}
    for name in GAMES:
        out[name] = decisions_per_sec(name, seconds)
    out["ratio"] = out["thirty-one"] / out["handwritten"]
    return out


def run(pure: bool, seconds: float) -> dict[str, float]:
    env = dict(os.environ, RULELANG_PURE="1" if pure else "")
    r = subprocess.run([sys.executable, __file__, "--child", "--seconds", str(seconds)],
                       env=env, cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(r.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measure")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(child(a.seconds)))
        return
    runs: dict[str, list[dict[str, float]]] = {"compiled": [], "pure": []}
    for i in range(a.pairs):
        order = ("compiled", "pure") if i % 2 == 0 else ("pure", "compiled")
        for mode in order:
            runs[mode].append(run(mode == "pure", a.seconds))
            if not a.json:
                r = runs[mode][-1]
                print(f"pair {i + 1} {mode:8} " + " ".join(
                    f"{k}={v:,.0f}" if v > 10 else f"{k}={v:.3f}" for k, v in r.items()))
    if not runs["compiled"][0]["compiled"]:
        sys.exit("no compiled modules in place: run `make accel` first")
    keys = ("ratio", "handwritten", *GAMES)
    med = {m: {k: statistics.median(r[k] for r in rs) for k in keys} for m, rs in runs.items()}
    gain = {k: med["compiled"][k] / med["pure"][k] for k in GAMES}
    if a.json:
        print(json.dumps({"median": med, "speedup": gain, "runs": runs}))
        return
    print(f"{'median':10}" + "".join(f"{k:>14}" for k in keys))
    for m in ("pure", "compiled"):
        print(f"{m:10}" + "".join(f"{med[m][k]:>14.3f}" if k == "ratio"
                                  else f"{med[m][k]:>14,.0f}" for k in keys))
    print(f"{'speed-up':10}{'':>14}{'':>14}" + "".join(f"{gain[k]:>13.2f}x" for k in GAMES))


if __name__ == "__main__":
    main()
