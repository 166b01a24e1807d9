"""``python -m fuzz``: the mutation fuzzer over the bundled games (``make fuzz``).

Every case is a bundled rules file with one to three mutations (fuzz/mutate.py), checked in
process through the CLI's ``check`` (fuzz/runner.py); cases that check clean are also played
briefly. Failures (a traceback, a hang, an unlocated error) are written to ``--out`` with their
seed, so ``python -m fuzz --case SEED:I`` replays one. Exit 1 if any case failed.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from .runner import Result, bundled_rules, make_case, run_case


def _chunk(args: tuple[int, int, int, float, float]) -> list[Result]:
    seed, lo, hi, timeout, sim_share = args
    bases = bundled_rules()
    out = []
    with tempfile.TemporaryDirectory(prefix="rulelang-fuzz-") as d:
        for i in range(lo, hi):
            simulate = (i * 2654435761 % 1000) / 1000 < sim_share
            out.append(run_case(seed, i, bases, Path(d), timeout, simulate))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__)
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per case")
    ap.add_argument("--simulate", type=float, default=0.25,
                    help="share of clean cases also played (0 to 1)")
    ap.add_argument("--out", default="fuzz/crashes", help="folder for failing cases")
    ap.add_argument("--case", help="run one case, SEED:I, and print its outcome")
    a = ap.parse_args(argv)

    if a.case:
        seed, i = (int(x) for x in a.case.split(":"))
        with tempfile.TemporaryDirectory() as d:
            r = run_case(seed, i, bundled_rules(), Path(d), a.timeout, True)
            base, _data, used = make_case(seed, i, bundled_rules())
        print(f"{r.case} {base.name} {'+'.join(used)}: {r.outcome} ({r.seconds:.2f} s)")
        print(r.detail)
        return 1 if r.bad else 0

    t0 = time.perf_counter()
    step = 50
    jobs = [(a.seed, lo, min(a.cases, lo + step), a.timeout, a.simulate)
            for lo in range(0, a.cases, step)]
    results: list[Result] = []
    if a.workers <= 1:
        for j in jobs:
            results.extend(_chunk(j))
    else:
        with mp.get_context("fork").Pool(a.workers) as pool:
            for rs in pool.imap_unordered(_chunk, jobs):
                results.extend(rs)
                if len(results) % 1000 < step:
                    print(f"  {len(results)} cases, {time.perf_counter() - t0:.0f} s",
                          file=sys.stderr)
    wall = time.perf_counter() - t0
    return report(results, wall, Path(a.out), a.seed)


def report(results: list[Result], wall: float, out: Path, seed: int) -> int:
    outcomes = Counter(r.outcome for r in results)
    by_mut: dict[str, Counter[str]] = {}
    for r in results:
        for m in r.mutators:
            by_mut.setdefault(m, Counter())[r.outcome] += 1
    slowest = max(results, key=lambda r: r.seconds) if results else None
    print(f"{len(results)} cases in {wall:.1f} s (seed {seed}): "
          + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    if slowest:
        print(f"slowest case {slowest.case} ({slowest.base}, {'+'.join(slowest.mutators)}): "
              f"{slowest.seconds:.2f} s")
    for m, c in sorted(by_mut.items()):
        print(f"  {m:18} " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    bad = [r for r in results if r.bad]
    if bad:
        out.mkdir(parents=True, exist_ok=True)
        for r in bad:
            name = r.case.replace(":", "_")
            (out / f"{name}.txt").write_text(
                f"case {r.case} base {r.base} mutators {'+'.join(r.mutators)}\n"
                f"outcome {r.outcome}\n\n{r.detail}\n", encoding="utf-8")
        print(f"{len(bad)} failing cases written to {out}/ (rerun one: python -m fuzz "
              f"--case {bad[0].case})")
        for r in bad[:10]:
            last = r.detail.strip().splitlines()[-1] if r.detail.strip() else ""
            print(f"  {r.case} {r.base} {'+'.join(r.mutators)}: {r.outcome}: {last[:200]}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
