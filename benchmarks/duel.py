"""One agent against ``greedy``, seats turned by game: the script behind docs/agents.md's
IS-MCTS measurements (a smaller, per-game-printing ``simulate``).

Game ``i`` is dealt by ``game_seed(SEED, i)`` and each bot seeded ``game_seed·31 + seat + 1``
(as ``simulate`` seeds them). Two players: the agent holds seat ``i mod 2``. More: one seat,
``i mod players``, among ``greedy`` ones (the fair share is one over the players)::

    .venv/bin/python benchmarks/duel.py ismcts:200 --players 2 --games 40
    .venv/bin/python benchmarks/duel.py ismcts:200:place:uniform:deep:guard=0 --players 4
"""

from __future__ import annotations

import argparse
import math
import time

import rulelang
from rulelang.agents import make_agent, parse_agents
from rulelang.seeds import game_seed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("agent", help="the agent, as --agents writes it (ismcts:200:guard=0)")
    ap.add_argument("--game", default="thirty-one")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--start", type=int, default=0, help="the first game's number")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    parse_agents(a.agent, 1)  # a usage error before any game
    game = rulelang.load(a.game)
    won = 0.0
    t0 = time.process_time()
    for i in range(a.start, a.start + a.games):
        gs = game_seed(a.seed, i)
        me = i % (a.players if a.players > 2 else 2)
        bots = [make_agent(a.agent if p == me else "greedy", gs * 31 + p + 1)
                for p in range(a.players)]
        s = game.new_state(a.players, seed=gs, record=False)
        while not s.is_over():
            p = s.current_player()
            s.apply_index(bots[p].choose_index(s, p))
        w = s.winner if isinstance(s.winner, list) else [s.winner]
        share = sum(1 for x in w if x == me) / max(1, len(w))
        won += share
        print(f"game {i} seat {me} winners {w} share {share:.2f} "
              f"total {won}/{i - a.start + 1}", flush=True)
    n, p, z = a.games, won / a.games, 1.96
    d = 1 + z * z / n
    c, h = (p + z * z / (2 * n)) / d, z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    print(f"{a.agent}: {100 * p:.1f}% ({100 * (c - h):.0f}-{100 * (c + h):.0f}%) of {n} games, "
          f"{(time.process_time() - t0) / n:.1f} s CPU a game")


if __name__ == "__main__":
    main()
