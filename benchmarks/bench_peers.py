"""Other engines on the same (or a comparable) game, for the ratio rows of the suite.

OpenSpiel (``pyspiel``, a C++ engine driven from a Python loop) and RLCard (pure Python) are
imported only if installed (``pip install -e '.[bench]'``); a missing one makes its row
"skipped". Each peer is driven the way a Python bot would drive it: uniformly random legal
actions chosen in Python, chance outcomes sampled by their probabilities; only the players'
choices count as decisions (OpenSpiel's deals and draws are chance nodes, rulelang's are not
decisions either).

Crazy Eights, rulelang (``games/crazy-eights.yaml``) against OpenSpiel's ``crazy_eights``,
both with 4 players (OpenSpiel's default is 5, so ``players=4`` is passed; its other parameters
stay at their defaults: ``max_draw_cards=5``, ``max_turns=100``, ``reshuffle=False``,
``use_special_cards=False``). Rule differences, so the ratio compares engines on close but not
identical games:
- OpenSpiel's game is one hand (it ends when a hand is empty, when every player passes in turn,
  or after ``max_turns``); rulelang's is a match of hands to 100 points, so it also pays for
  gathering, shuffling and dealing every new hand (a deal is no decision on either side).
- OpenSpiel lets a player draw even with a playable card (at most 5 draws a turn, then pass);
  rulelang's draws only when nothing is playable, and passes only with an empty stock.
- OpenSpiel plays an eight and then nominates the suit as a second decision; rulelang's
  ``eight 8S H`` is one decision naming both.
- OpenSpiel picks the dealer by chance and plays counter-clockwise; neither matters here.
"""

from __future__ import annotations

import random
from typing import Any

from measure import SKIPPED, Work, cpu


def have_openspiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def have_rlcard() -> bool:
    try:
        import rlcard  # noqa: F401
    except ImportError:
        return False
    return True


def openspiel_random(name: str, params: dict[str, Any], decisions: int, seed: int) -> Work:
    """``decisions`` random player decisions in OpenSpiel's ``name`` (new games as needed)."""
    import pyspiel

    game = pyspiel.load_game(name, params)
    rng = random.Random(seed)
    rand = rng.random
    done = 0
    t0 = cpu()
    while done < decisions:
        s = game.new_initial_state()
        while not s.is_terminal() and done < decisions:
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                x = rand()
                action = outcomes[-1][0]
                for a, p in outcomes:
                    x -= p
                    if x < 0:
                        action = a
                        break
                s.apply_action(action)
            else:
                legal = s.legal_actions()
                s.apply_action(legal[int(rand() * len(legal))])
                done += 1
    return done, cpu() - t0


def rlcard_gin_rummy(decisions: int, seed: int) -> Work:
    """``decisions`` random decisions in RLCard's gin rummy, driven at the game level (its
    ``judge`` lists the legal actions), without the environment's observation encoding, which
    a rulelang loop does not pay for either."""
    import numpy as np
    from rlcard.games.gin_rummy.game import GinRummyGame

    game = GinRummyGame()
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    rand = rng.random
    done = 0
    t0 = cpu()
    while done < decisions:
        game.init_game()
        while not game.is_over() and done < decisions:
            legal = game.judge.get_legal_actions()
            game.step(legal[int(rand() * len(legal))])
            done += 1
    return done, cpu() - t0


def skipped(reason: str = SKIPPED) -> dict[str, Any]:
    return {"skipped": reason}
