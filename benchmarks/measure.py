"""Timing helpers shared by the benchmark suite (``benchmarks/bench.py``).

The machine the project is measured on is shared, so every figure is CPU time of this process
(``time.process_time``) or of its children (``resource.getrusage(RUSAGE_CHILDREN)``), and every
ratio comes from the two engines run in alternation, a few short rounds each, in one process:
a neighbour's load then slows both sides of a round alike, and the median of the rounds' ratios
drops the round it hit hardest.
"""

from __future__ import annotations

import random
import resource
import statistics
import time
from collections.abc import Callable
from typing import Any

# a measured piece of work: how many decisions (or other units) it made, in how many CPU seconds
Work = tuple[int, float]

SKIPPED = "skipped (pip install -e '.[bench]')"


def cpu() -> float:
    return time.process_time()


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes of this process."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def per_sec(work: Work) -> int:
    n, secs = work
    return round(n / secs) if secs > 0 else 0


def alternate(a: Callable[[int], Work], b: Callable[[int], Work], rounds: int) -> dict[str, Any]:
    """Run ``a(round)`` and ``b(round)`` in turn, ``rounds`` times; each returns (decisions, CPU
    seconds). The rates are over all rounds; ``ratio`` is the median of the rounds' a/b ratios."""
    ratios: list[float] = []
    ta: list[Work] = []
    tb: list[Work] = []
    for r in range(rounds):
        # which side goes first alternates too, so that neither always gets the warmer caches
        if r % 2 == 0:
            wa, wb = a(r), b(r)
        else:
            wb, wa = b(r), a(r)
        ta.append(wa)
        tb.append(wb)
        if per_sec(wb):
            ratios.append(per_sec(wa) / per_sec(wb))
    total_a = (sum(n for n, _ in ta), sum(s for _, s in ta))
    total_b = (sum(n for n, _ in tb), sum(s for _, s in tb))
    return {"a": per_sec(total_a), "b": per_sec(total_b),
            "ratio": round(statistics.median(ratios), 4) if ratios else None,
            "ratios": [round(x, 4) for x in ratios], "rounds": rounds}


def random_decisions(game: Any, players: int, decisions: int, seed: int) -> Work:
    """Random agents through the public State API: ``decisions`` uniformly random choices
    among the legal moves, a new game (seeded from ``seed``) whenever one ends. The bots
    choose by index through ``State.run`` (``agents.RandomAgent.choose_index``'s choice:
    ``int(random() * num_moves())``), the same games as ``apply_index`` in a loop."""
    rng = random.Random(seed)
    rand = rng.random

    def pick(s: Any, _seat: int) -> int:
        return int(rand() * s.num_moves())

    done = 0
    g = 0
    t0 = cpu()
    while done < decisions:
        s = game.new_state(players, seed=seed * 100_003 + g, record=False)
        g += 1
        done += s.run(pick, decisions - done)
    return done, cpu() - t0
