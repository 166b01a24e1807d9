"""How a run's seed becomes each game's seed: shared by simulation, which plays the games, and
replay, which plays them again from a log, so that neither imports the other for it.

It imports nothing from rulelang, so anything may import it.
"""

from __future__ import annotations


def game_seed(seed: int, i: int) -> int:
    """The seed of game ``i`` of a run seeded ``seed``: it depends on those two alone, never on
    how the games are split among workers."""
    return (seed * 1_000_003 + i * 7_919 + 17) % (2**62)
