"""Cross-replays against RLCard's own games (tests/crossreplay_rlcard.py): a few random games of
each, played in RLCard and replayed in the bundled rules file, every legal-move set, position
and payoff compared. The full run (1,000 games each) is
``python -m tests.crossreplay_rlcard --games 1000``; its report is in docs/environments.md.
Skipped without the rlcard extra; run by ``make test-envs``."""

from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.skipif(not os.environ.get("RULELANG_ENV_TESTS"),
                                reason="the environment tests run with make test-envs")

GAMES = int(os.environ.get("RULELANG_CROSS_GAMES", "100"))


@pytest.mark.parametrize("game", ["blackjack", "uno", "gin-rummy"])
def test_rlcard_games_replay_alike_in_rulelang(game: str) -> None:
    pytest.importorskip("rlcard")
    from .crossreplay_rlcard import GAMES as KNOWN
    from .crossreplay_rlcard import run

    if game not in KNOWN:
        pytest.skip(f"no cross-replay of {game} yet")
    counts = run(game, GAMES, seed=1000)
    assert sum(counts.values()) == GAMES
    # the comparison is restricted, never empty: most games are compared to their end or to
    # the documented point where the rule sets part
    agreed = sum(v for k, v in counts.items() if k.startswith("agree"))
    assert agreed >= GAMES // 4, counts
    assert all(k.startswith(("agree", "skipped: ", "stopped: ")) for k in counts), counts
