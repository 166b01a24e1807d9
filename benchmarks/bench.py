"""``make bench``: the engine's benchmark suite, every row measured in one process run.

Rows (CPU time throughout; ratios from the two sides alternated in a few short rounds, the
median ratio reported; see ``measure.py``):

- 4-player Thirty-One, random agents: rulelang against ``handwritten31.py``;
- Crazy Eights (``games/crazy-eights.yaml``) against OpenSpiel's ``crazy_eights``, 4
  players; and, as reference rows only (a different game), Tonk against OpenSpiel's
  ``gin_rummy`` and ``hearts`` and RLCard's gin rummy (``bench_peers.py``);
- every bundled game's decisions/sec with random agents;
- per bundled game: ``clone()`` and ``determinize()`` µs, and 1,000 random playouts from a
  mid-round state to the end of the round (by clone and by determinize), in CPU seconds;
- one greedy seat against three random ones (the bot API's search cost);
- ``rulelang check`` cold per bundled game, ``rulelang test games``, ``simulate --workers 1``
  against ``--workers 2`` (speedup, and whether the statistics are identical).

``--smoke`` runs everything tiny (CI runs it so that the script cannot rot; it needs no peer);
``--json`` prints one JSON object instead of the tables; ``--profile`` profiles rulelang's
random Thirty-One games. OpenSpiel and RLCard come with ``pip install -e '.[bench]'``; without
them their rows say "skipped".
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_cli
import bench_engine
import bench_peers
from measure import alternate, random_decisions

ROOT = bench_engine.ROOT

# sizes: (smoke, full)
SIZES: dict[str, tuple[int, int]] = {
    "ratio_rounds": (1, 5),        # alternated rounds of each ratio row
    "t31_games": (4, 300),         # rulelang Thirty-One games a round (hand-written: 10×)
    "peer_decisions": (300, 20_000),  # rulelang decisions a round against a peer (peer: 5×)
    "game_decisions": (200, 20_000),  # decisions per bundled game
    "playouts": (2, 1000),         # playouts per game (smoke: scaled to 1,000)
    "playout_budget": (5, 30),     # CPU s per game and kind of playout before scaling to 1,000
    "copies": (50, 5000),          # clone()/determinize() calls timed
    "greedy_games": (1, 20),
    "check_repeat": (1, 3),
    "sim_games": (40, 6000),
    "sim_rounds": (1, 3),
}

CRAZY_EIGHTS = ROOT / "games" / "crazy-eights.yaml"
REFERENCE = "different game, reference only"


def peer_rows(size: dict[str, int]) -> dict[str, Any]:
    """Crazy Eights against OpenSpiel, and Tonk's reference rows, alternated with rulelang."""
    rounds, dec = size["ratio_rounds"], size["peer_decisions"]
    out: dict[str, Any] = {}
    ce = bench_engine.load(CRAZY_EIGHTS)
    tonk = bench_engine.load(ROOT / "games" / "tonk.yaml")
    random_decisions(ce, 4, 300, 98)  # warm the memos
    random_decisions(tonk, 4, 300, 98)

    def rl(game: Any) -> Any:
        return lambda r: random_decisions(game, 4, dec, r + 1)

    if bench_peers.have_openspiel():
        alt = alternate(rl(ce), lambda r: bench_peers.openspiel_random(
            "crazy_eights", {"players": 4}, dec * 5, r + 1), rounds)
        out["crazy_eights"] = {"players": 4, "rulelang": alt["a"], "openspiel": alt["b"],
                               "ratio": alt["ratio"], "ratios": alt["ratios"]}
        for name in ("gin_rummy", "hearts"):
            players = 2 if name == "gin_rummy" else 4
            alt = alternate(
                lambda r, k=players: random_decisions(tonk, k, dec, r + 1),
                lambda r, n=name: bench_peers.openspiel_random(n, {}, dec * 2, r + 1), rounds)
            out[f"tonk_vs_openspiel_{name}"] = {
                "note": REFERENCE, "players": players, "rulelang_tonk": alt["a"],
                "peer": alt["b"], "ratio": alt["ratio"]}
    else:
        out["crazy_eights"] = bench_peers.skipped()
        out["tonk_vs_openspiel_gin_rummy"] = bench_peers.skipped()
        out["tonk_vs_openspiel_hearts"] = bench_peers.skipped()
    if bench_peers.have_rlcard():
        alt = alternate(lambda r: random_decisions(tonk, 2, dec, r + 1),
                        lambda r: bench_peers.rlcard_gin_rummy(dec, r + 1), rounds)
        out["tonk_vs_rlcard_gin_rummy"] = {
            "note": REFERENCE, "players": 2, "rulelang_tonk": alt["a"], "peer": alt["b"],
            "ratio": alt["ratio"]}
    else:
        out["tonk_vs_rlcard_gin_rummy"] = bench_peers.skipped()
    return out


def measure_all(smoke: bool) -> dict[str, Any]:
    size = {k: v[0] if smoke else v[1] for k, v in SIZES.items()}
    out: dict[str, Any] = {"mode": "smoke" if smoke else "full", "sizes": size}
    out["thirty_one"] = bench_engine.thirty_one_vs_handwritten(size["ratio_rounds"],
                                                                size["t31_games"])
    out["peers"] = peer_rows(size)
    out["games"] = bench_engine.every_game(size["game_decisions"])
    out["search"] = bench_engine.search_costs(size["playouts"], size["copies"],
                                                size["playout_budget"])
    out["greedy_table"] = bench_engine.greedy_table(size["greedy_games"])
    games = bench_engine.bundled_games()
    if smoke:  # one file, a handful of scenarios: the commands still run, quickly
        checked = [ROOT / "games" / "thirty-one.yaml"]
        scenarios = [str(p.relative_to(ROOT))
                     for p in sorted((ROOT / "games" / "thirty-one").glob("*.yaml"))[:5]]
    else:
        checked, scenarios = games, ["games"]
    out["check_cold_cpu_s"] = bench_cli.check_cold(checked, size["check_repeat"])
    out["test_scenarios"] = bench_cli.test_scenarios(scenarios)
    out["simulate_workers"] = bench_cli.workers_scaling("thirty-one", size["sim_games"],
                                                        size["sim_rounds"])
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


def fmt(v: Any) -> str:
    return f"{v:,}" if isinstance(v, int) else str(v)


def ratio_line(label: str, row: dict[str, Any], a: str, b: str) -> str:
    if "skipped" in row:
        return f"  {label}: {row['skipped']}"
    return (f"  {label}: {fmt(row[a])} vs {fmt(row[b])} decisions/s, "
            f"ratio {row['ratio']}" + (f" ({row['note']})" if "note" in row else ""))


def print_tables(out: dict[str, Any]) -> None:
    t31 = out["thirty_one"]
    print(f"[{out['mode']}] ratio rows: rulelang vs peer, decisions per CPU second, median "
          f"of {out['sizes']['ratio_rounds']} alternated rounds")
    print(f"  Thirty-One (4 players) vs handwritten31.py: "
          f"{fmt(t31['rulelang']['decisions_per_sec'])} vs "
          f"{fmt(t31['handwritten']['decisions_per_sec'])}, ratio {t31['ratio']}")
    peers = out["peers"]
    print(ratio_line("Crazy Eights (4 players) vs OpenSpiel crazy_eights", peers["crazy_eights"],
                     "rulelang", "openspiel"))
    for key, label in (("tonk_vs_openspiel_gin_rummy", "Tonk (2) vs OpenSpiel gin_rummy"),
                       ("tonk_vs_openspiel_hearts", "Tonk (4) vs OpenSpiel hearts"),
                       ("tonk_vs_rlcard_gin_rummy", "Tonk (2) vs RLCard gin rummy")):
        print(ratio_line(label, peers[key], "rulelang_tonk", "peer"))
    print("\nper bundled game (default players, random agents; CPU time):")
    print(f"  {'game':28} {'decisions/s':>12} {'clone µs':>9} {'determ. µs':>10} "
          f"{'1000 playouts s (clone / determinize)':>38}")
    for name, g in out["games"].items():
        s = out["search"][name]
        print(f"  {name:28} {fmt(g['decisions_per_sec']):>12} {s['clone_us']:>9} "
              f"{s['determinize_us']:>10} {s['playouts_1000_clone_s']:>19} / "
              f"{s['playouts_1000_determinize_s']}")
    print(f"\ngreedy seat + 3 random, Thirty-One: "
          f"{fmt(out['greedy_table']['decisions_per_sec'])} decisions/s")
    print("rulelang check, cold process (CPU s): " + ", ".join(
        f"{k} {v}" for k, v in out["check_cold_cpu_s"].items()))
    ts = out["test_scenarios"]
    which = " ".join(ts["paths"]) if ts["paths"] == ["games"] else f"({len(ts['paths'])} files)"
    print(f"rulelang test {which}: "
          f"{ts['cpu_s']} CPU s ({ts['wall_s']} wall); {ts['result']}")
    sw = out["simulate_workers"]
    print(f"simulate {sw['game']} --games {sw['games']}: --workers 1 {sw['w1_wall_s']} s, "
          f"--workers 2 {sw['w2_wall_s']} s wall (median of {sw['rounds']}): speedup "
          f"{sw['speedup']}; statistics identical: {sw['identical_statistics']}")
    print(f"peak memory of this process: {out['peak_rss_mb']} MB")


def profile() -> None:
    import cProfile
    import pstats

    game = bench_engine.load(ROOT / "games" / "thirty-one.yaml")
    random_decisions(game, 4, 5000, 2)  # warm the memo caches first
    prof = cProfile.Profile()
    prof.runcall(random_decisions, game, 4, 30_000, 1)
    pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, for CI (seconds)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--profile", action="store_true",
                    help="only profile rulelang's random Thirty-One (cProfile, cumulative)")
    a = ap.parse_args()
    if a.profile:
        profile()
        return
    out = measure_all(a.smoke)
    if a.json:
        print(json.dumps(out))
    else:
        print_tables(out)


if __name__ == "__main__":
    main()
