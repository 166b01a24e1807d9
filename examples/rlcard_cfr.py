"""A real learner on a rules file: RLCard's own CFR agent (chance-sampling counterfactual regret
minimisation, no torch) trained on rulelang's Blackjack through ``rulelang.rlcard``, then
played against RLCard's random agent.

    .venv/bin/python examples/rlcard_cfr.py                 # 30 iterations, 1,000 games
    .venv/bin/python examples/rlcard_cfr.py 5 200           # shorter

Two players each bet and play one hand against the house (one deck); the payoff is the match's
(1 to the seat with more chips after the hand, halves on a tie), so the agent learns to finish
ahead of the other player. CFR walks every legal action at each of its decisions and takes it
back with ``step_back`` (the env keeps a copy of the match per step): it needs a small game,
and one hand of Blackjack is one. Needs ``pip install 'rulelang[rlcard]'``.
"""

from __future__ import annotations

import sys
import tempfile

import numpy as np
from rlcard.agents import CFRAgent, RandomAgent
from rlcard.utils import tournament

import rulelang.rlcard

OPTIONS = {"decks": 1, "hands": 1}


def main(argv: list[str]) -> dict[str, float]:
    iterations = int(argv[0]) if argv else 30
    games = int(argv[1]) if len(argv) > 1 else 1000
    env = rulelang.rlcard.make("blackjack", players=2, options=OPTIONS, seed=0,
                               allow_step_back=True)
    with tempfile.TemporaryDirectory() as where:
        agent = CFRAgent(env, model_path=where)
        for _ in range(iterations):
            agent.train()  # one traversal per seat, on a new deal
    np.random.seed(1)  # the random agent's and CFR's choices in play
    match = rulelang.rlcard.make("blackjack", players=2, options=OPTIONS, seed=1)
    match.set_agents([agent, RandomAgent(match.num_actions)])
    trained = tournament(match, games)[0]
    match = rulelang.rlcard.make("blackjack", players=2, options=OPTIONS, seed=1)
    match.set_agents([RandomAgent(match.num_actions), RandomAgent(match.num_actions)])
    baseline = tournament(match, games)[0]
    print(f"CFR, {iterations} iterations ({len(agent.average_policy)} information sets), "
          f"seat 0 against a random seat 1: {trained:.3f} of the wins in {games} games")
    print(f"a random seat 0 against a random seat 1: {baseline:.3f}")
    return {"trained": float(trained), "baseline": float(baseline)}


if __name__ == "__main__":
    main(sys.argv[1:])
