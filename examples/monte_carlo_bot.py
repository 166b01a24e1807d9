"""A search bot written against rulelang's Python API, for any game (default: Thirty-One).

For each legal move it samples the cards it cannot see (``determinize``: a shuffle of the unseen
cards among the unseen places, never a peek), plays the move and then random moves to the end of
the round in the sample, and keeps the move with the best mean result for its seat. It then
plays a few games against random seats and prints how often it wins.

    .venv/bin/python examples/monte_carlo_bot.py                # Thirty-One, 4 players
    .venv/bin/python examples/monte_carlo_bot.py crazy-eights   # or a rules file's path
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import rulelang


def round_score(state: Any, seat: int) -> float:
    """How far the seat's counters (lives, points, chips...) are ahead of the other seats'
    mean once the round is settled."""
    total = 0.0
    for row in state.result()["counters"].values():
        if all(isinstance(x, (int, float)) for x in row):
            others = [x for p, x in enumerate(row) if p != seat]
            total += row[seat] - sum(others) / max(1, len(others))
    return total


def choose(state: Any, rng: random.Random, samples: int = 8) -> int:
    """The index of the legal move with the best mean round result over sampled worlds."""
    seat = state.current_player()
    n = state.num_moves()
    if n == 1:
        return 0
    totals = [0.0] * n
    for _ in range(samples):
        world = state.determinize(seat, rng)  # what the seat might face, from what it sees
        if world.num_moves() != n:
            continue
        for i in range(n):
            s = world.clone()
            s.auto_continue = False  # stop at the end of this round
            s.apply_index(i)
            while not s.round_over():
                s.apply_index(int(rng.random() * s.num_moves()))
            totals[i] += round_score(s, seat)
    return max(range(n), key=lambda i: totals[i])


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "thirty-one"
    if not Path(name).exists() and (Path(__file__).parent / f"{name}.yaml").exists():
        name = str(Path(__file__).parent / f"{name}.yaml")
    game = rulelang.load(name)
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    rng = random.Random(1)
    wins = 0.0
    for g in range(games):
        state = game.new_state(4, seed=g)
        while not state.is_over():
            seat = state.current_player()
            i = choose(state, rng) if seat == 0 else int(rng.random() * state.num_moves())
            state.apply_index(i)
        wins += state.returns()[0]
    print(f"{game.name}: the search bot (seat 0) won {wins:g} of {games} games against three "
          f"random seats ({wins / games:.0%}; a random seat would win about 25%)")


if __name__ == "__main__":
    main()
