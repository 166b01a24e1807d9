"""Every bundled game as an RLCard environment (``rulelang.rlcard``), played by RLCard's own
agents through its own loop (``env.run``, ``rlcard.utils.tournament``, ``reorganize``), with the
checks RLCard's test suite makes of its environments (the first state's shape, legal action
ids within the action space, determinism under one seed, ``step_back``). Skipped without the
extra; run by ``make test-envs`` only (``make test`` has a time budget of its own)."""

from __future__ import annotations

import os

import pytest

from .helpers import ROOT

pytestmark = pytest.mark.skipif(not os.environ.get("RULELANG_ENV_TESTS"),
                                reason="the environment tests run with make test-envs")

GAMES = sorted(p.stem for p in (ROOT / "games").glob("*.yaml"))
# random matches of some games last thousands of decisions: cut off (a documented parameter)
DECISIONS = int(os.environ.get("RULELANG_ENV_DECISIONS", "150"))


def _make(name: str, **kw):  # type: ignore[no-untyped-def]
    import rulelang.rlcard as rr

    return rr.make(str(ROOT / "games" / f"{name}.yaml"), **kw)


@pytest.mark.parametrize("name", GAMES)
def test_rlcard_random_agents_run_every_game(name: str) -> None:
    pytest.importorskip("rlcard")
    import numpy as np
    from rlcard.agents import RandomAgent
    from rlcard.utils import reorganize

    np.random.seed(0)  # RandomAgent draws from NumPy's global generator
    env = _make(name, seed=1, max_decisions=DECISIONS)
    state, player = env.reset()
    assert state["obs"].shape == tuple(env.state_shape[player])
    assert state["legal_actions"] and all(0 <= a < env.num_actions
                                          for a in state["legal_actions"])
    assert len(state["raw_legal_actions"]) == len(state["legal_actions"])
    env.set_agents([RandomAgent(env.num_actions) for _ in range(env.num_players)])
    trajectories, payoffs = env.run(is_training=False)
    assert len(trajectories) == env.num_players and len(payoffs) == env.num_players
    assert env.is_over()
    if env.match.is_over():
        assert abs(sum(payoffs) - 1.0) < 1e-9
    # RLCard's training loops turn trajectories into transitions with reorganize
    transitions = reorganize(trajectories, payoffs)
    assert sum(len(t) for t in transitions) == len(env.action_recorder)


@pytest.mark.parametrize("name", ["uno", "blackjack", "thirty-one"])
def test_rlcard_one_seed_plays_the_same_match(name: str) -> None:
    pytest.importorskip("rlcard")
    import numpy as np
    from rlcard.agents import RandomAgent

    def play() -> list:  # type: ignore[type-arg]
        np.random.seed(3)
        env = _make(name, seed=5, max_decisions=DECISIONS)
        env.set_agents([RandomAgent(env.num_actions) for _ in range(env.num_players)])
        _traj, payoffs = env.run()
        return [*env.action_recorder, list(payoffs)]

    assert play() == play()


@pytest.mark.parametrize("name", ["uno", "gin-rummy", "blackjack"])
def test_rlcard_step_back_undoes_a_step(name: str) -> None:
    pytest.importorskip("rlcard")
    import numpy as np

    env = _make(name, seed=2, allow_step_back=True)
    state, player = env.reset()
    assert env.step_back() is False
    rng = np.random.default_rng(0)
    seen = []
    for _ in range(12):
        if env.is_over():
            break
        seen.append((state["obs"].copy(), list(state["legal_actions"]), player))
        state, player = env.step(int(rng.choice(list(state["legal_actions"]))))
    for obs, legal, who in reversed(seen):
        state, player = env.step_back()
        assert player == who and list(state["legal_actions"]) == legal
        assert (state["obs"] == obs).all()
    assert env.step_back() is False
    # raw actions: the move text itself
    state, player = env.reset()
    text = state["raw_legal_actions"][0]
    env.step(text, raw_action=True)
    assert env.action_recorder == [(player, text)]


def test_rlcard_step_back_is_off_unless_asked_for() -> None:
    pytest.importorskip("rlcard")
    env = _make("thirty-one", seed=0)
    env.reset()
    with pytest.raises(Exception, match="allow_step_back"):
        env.step_back()


def test_rlcard_tournament_and_an_illegal_action() -> None:
    pytest.importorskip("rlcard")
    import numpy as np
    from rlcard.agents import RandomAgent
    from rlcard.utils import tournament

    np.random.seed(1)
    env = _make("thirty-one", players=2, options={"lives": 1}, seed=0)
    env.set_agents([RandomAgent(env.num_actions) for _ in range(2)])
    payoffs = tournament(env, 6)
    assert abs(sum(payoffs) - 1.0) < 1e-9
    state, _ = env.reset()
    bad = next(i for i in range(env.num_actions) if i not in state["legal_actions"])
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)


def test_the_cfr_training_example_runs() -> None:
    # examples/rlcard_cfr.py, shortened: RLCard's CFR agent (no torch) learns on Blackjack
    # through step_back; the full run's figures are in docs/environments.md
    pytest.importorskip("rlcard")
    import importlib.util

    spec = importlib.util.spec_from_file_location("rlcard_cfr",
                                                  ROOT / "examples" / "rlcard_cfr.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    got = example.main(["1", "20"])
    assert 0.0 <= got["trained"] <= 1.0 and 0.0 <= got["baseline"] <= 1.0


def test_rulelang_does_not_import_rlcard() -> None:
    # the extra is imported only where used: the package and its command never load it
    import subprocess
    import sys

    code = ("import sys, rulelang, rulelang.cli, rulelang.commands; "
            "rulelang.load('uno').new_state(2); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('rlcard', 'numpy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]", out
