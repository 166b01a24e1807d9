"""How often a knock loses, by the knocker's hand: in truth and in the search's samples.

Two ``greedy`` bots play a two-player game; at each decision of seat 0 where ``knock`` is
legal, the knock is played out three ways and the share where the knocker lost a life is
tabulated by its ``hand_value``:

- truth: the real position, the other seat's reply chosen by the ``greedy`` bot;
- search: ``SAMPLES`` worlds dealt from seat 0's view (as ``ismcts`` samples them, known
  cards kept), the reply played by the search's greedy playout step (``ismcts``'s own
  ``_policy_step``, as a reply to the seat's move; ``--candidates 4`` judges 4 moves drawn
  at random, the rule before the ninth session).

The script behind docs/agents.md's "Why IS-MCTS played Switch worse"::

    .venv/bin/python benchmarks/knock_odds.py thirty-one-switch --games 24
    .venv/bin/python benchmarks/knock_odds.py thirty-one-switch --games 24 --candidates 4
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

import rulelang
import rulelang.ismcts as ism
import rulelang.playout as playout
from rulelang.agents import make_agent
from rulelang.seeds import game_seed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--samples", type=int, default=2, help="sampled worlds per position")
    ap.add_argument("--candidates", type=int, default=playout.GREEDY_REPLY,
                    help="moves a reply step judges at most")
    a = ap.parse_args()
    playout.GREEDY_REPLY = a.candidates
    game = rulelang.load(a.game)
    h = game.functions[game.heuristic].fn
    value = game.functions["hand_value"].fn
    truth: dict[int, list[bool]] = defaultdict(list)
    search: dict[int, list[bool]] = defaultdict(list)
    for i in range(a.games):
        gs = game_seed(1, i)
        bots = [make_agent("greedy", gs * 31 + p + 1) for p in range(2)]
        s = game.new_state(2, seed=gs, record=False)
        rng = random.Random(i)
        hand0 = s.znames.index("hand")
        s.track_known()
        while not s.is_over():
            p = s.current_player()
            if p == 0 and "knock" in s.legal_moves() and s.ctr[0][0] > 0:
                v, lives = value(s, list(s.zones[hand0])), s.ctr[0][0]
                t = s.clone()
                t.auto_continue = False
                t.known = t.watch = None
                t.apply("knock")
                reply = make_agent("greedy", 99 + i)
                while t.status == "play":
                    t.apply_index(reply.choose_index(t, t.current_player()))
                truth[v].append(t.ctr[0][0] < lives)
                bot = ism.ISMCTSAgent(5, iterations=1)
                for _ in range(a.samples):
                    w = s.determinize(0, rng, True)
                    w.auto_continue = False
                    w.max_work = 10**12
                    w.apply("knock")
                    bot._seat, bot._replying, bot._world, bot._left = 0, True, w, 10**12
                    while bot._world.status == "play":
                        bot._policy_step(bot._world, h)
                    search[v].append(bot._world.ctr[0][0] < lives)
            s.apply_index(bots[p].choose_index(s, p))
    print(f"{a.game}: P(the knocker loses a life), {a.games} games, replies judged among "
          f"at most {a.candidates} moves")
    for v in sorted(truth):
        if len(truth[v]) >= 3:
            print(f"  hand {v:2d}: truth {sum(truth[v]) / len(truth[v]):.2f} "
                  f"(n={len(truth[v])})  search's samples "
                  f"{sum(search[v]) / len(search[v]):.2f}")


if __name__ == "__main__":
    main()
