"""What the search thinks a knock is worth beside drawing, with the rest of the turn searched
in the tree (``:turn``) or played by the policy (``:move``, the default since the tenth
session).

Two ``greedy`` bots play a two-player game; at each decision of seat 0 where ``knock`` is
legal, ``ismcts`` (``ITERATIONS``, guard 0) searches the position both ways and the mean of
V(knock) - max(V(draw stock), V(draw discard)) is tabulated by the knocker's ``hand_value``.
A draw is followed by a discard of the same seat: searched by UCB1 in the tree, the poor
discards its exploration tries pull the draw's mean down, and knocking (which ends the turn)
gains beside it. The script behind docs/agents.md's tenth-session section::

    .venv/bin/python benchmarks/knock_values.py thirty-one-dutch --games 5 --iterations 400
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import rulelang
from rulelang.agents import make_agent
from rulelang.ismcts import ISMCTSAgent
from rulelang.seeds import game_seed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=400)
    a = ap.parse_args()
    game = rulelang.load(a.game)
    value = game.functions["hand_value"].fn
    gaps: dict[float, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for i in range(a.games):
        gs = game_seed(1, i)
        bots = [make_agent("greedy", gs * 31 + p + 1) for p in range(2)]
        s = game.new_state(2, seed=gs, record=False)
        hand0 = s.znames.index("hand")
        while not s.is_over():
            p = s.current_player()
            if p == 0 and "knock" in s.legal_moves():
                v = value(s, list(s.zones[hand0]))
                for mode in ("turn", "move"):
                    bot = ISMCTSAgent(7, iterations=a.iterations, guard=0, flat=mode == "move")
                    bot.choose_index(s.clone(), 0)
                    got = bot.last_values
                    draw = max(got.get("draw stock", 0.0), got.get("draw discard", 0.0))
                    gaps[v][mode].append(got.get("knock", 0.0) - draw)
            s.apply_index(bots[p].choose_index(s, p))
    print(f"{a.game}: V(knock) - V(best draw), {a.games} games, {a.iterations} iterations")
    for v in sorted(gaps):
        t, m = gaps[v]["turn"], gaps[v]["move"]
        print(f"  hand {v:4}: n={len(t):2d}  :turn {sum(t) / len(t):+.3f}"
              f"  :move {sum(m) / len(m):+.3f}")


if __name__ == "__main__":
    main()
