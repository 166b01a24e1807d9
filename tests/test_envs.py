"""Every bundled game as a research environment, checked by the peers' own test suites:
PettingZoo's ``api_test`` and ``seed_test``, OpenSpiel's random-simulation test, and OpenSpiel's
IS-MCTS bot playing a short match. Skipped when the extras are not installed; not part of
``make test`` (run by ``make test-envs``; RULELANG_ENV_CYCLES, RULELANG_ENV_SIMS and
RULELANG_ENV_DECISIONS make them longer)."""

from __future__ import annotations

import os
import random
import warnings

import pytest

from .helpers import ROOT

# run by `make test-envs` only: `make test` has a time budget of its own
pytestmark = pytest.mark.skipif(not os.environ.get("RULELANG_ENV_TESTS"),
                                reason="the environment tests run with make test-envs")

GAMES = sorted(p.stem for p in (ROOT / "games").glob("*.yaml"))
CYCLES = int(os.environ.get("RULELANG_ENV_CYCLES", "1000"))  # api_test's default
SIMS = int(os.environ.get("RULELANG_ENV_SIMS", "2"))
# random matches of some games last thousands of decisions, at milliseconds each through
# OpenSpiel's checks: the simulations are cut off after this many (a documented parameter)
DECISIONS = int(os.environ.get("RULELANG_ENV_DECISIONS", "150"))


def _path(name: str) -> str:
    return str(ROOT / "games" / f"{name}.yaml")


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    import rulelang.pettingzoo as rp

    with warnings.catch_warnings():
        # api_test warns about what it only recommends (an observation space that is a Dict)
        warnings.simplefilter("ignore")
        api_test(rp.env(_path(name)), num_cycles=CYCLES)
        seed_test(lambda: rp.env(_path(name)), num_cycles=CYCLES // 2)


def test_pettingzoo_a_match_to_its_end_rewards_the_winner() -> None:
    pytest.importorskip("pettingzoo")
    import numpy as np

    import rulelang.pettingzoo as rp

    env = rp.env("thirty-one", players=2, options={"lives": 1})
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["observation"].shape == env.observation_space(agent)["observation"].shape
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    assert sorted(total.values()) == [0.0, 1.0]
    assert env.agents == []


def test_pettingzoo_max_decisions_truncates_the_match() -> None:
    pytest.importorskip("pettingzoo")
    import rulelang.pettingzoo as rp

    env = rp.env("thirty-one", players=2, max_decisions=4)
    env.reset(seed=0)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            env.step(None)
            continue
        env.step(int(obs["action_mask"].nonzero()[0][0]))
        steps += 1
    assert steps == 4 and env.agents == []


def test_pettingzoo_render_shows_only_the_seats_view() -> None:
    pytest.importorskip("pettingzoo")
    import rulelang.pettingzoo as rp

    env = rp.env("thirty-one", players=3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and text.startswith("P")
    seat = env.match.current_player()
    others = [p for p in range(3) if p != seat]
    hand = env.match.view(seat)["zones"]["hand"]
    assert all(c != "?" for c in hand[seat]) and all(c == "?" for c in hand[others[0]])
    assert "legal:" in text


def test_pettingzoo_template_and_index_spaces() -> None:
    pytest.importorskip("pettingzoo")
    import rulelang.pettingzoo as rp

    e = rp.env("thirty-one").encoding
    assert e.mode == "template" and e.num_actions < 200
    assert rp.env("greek-31").encoding.mode == "index"  # bet N: a number argument


@pytest.mark.parametrize("name", GAMES)
def test_template_actions_name_their_moves(name: str) -> None:
    """In the template space an action, read back without the state, is the move's text (a
    move naming a card its mover cannot see excepted: the action says only its place)."""
    import rulelang
    from rulelang.encoding import Encoding
    from rulelang.movetext import canon_move

    game = rulelang.load(_path(name))
    enc = Encoding(game, game.default_players)
    if enc.mode != "template":
        pytest.skip("index space")
    rng = random.Random(0)
    state = game.new_state(seed=0)
    while not state.is_over() and state.decisions < 200:
        legal = enc.legal_indices(state)
        assert all(0 <= i < enc.num_actions for i in legal)
        for i, text in legal.items():
            assert "#" in text or canon_move(enc.describe(i)) == canon_move(text)
        state.apply(legal[rng.choice(sorted(legal))])


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation(name: str) -> None:
    pytest.importorskip("pyspiel")
    import pyspiel

    import rulelang.openspiel as ro

    game = ro.load_game(_path(name), max_decisions=DECISIONS)
    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=False, verbose=False)


def test_openspiel_registered_by_name() -> None:
    pytest.importorskip("pyspiel")
    import pyspiel

    import rulelang.openspiel as ro

    game = pyspiel.load_game(ro.SHORT_NAME, {"game": "thirty-one", "players": 2,
                                            "options": '{"lives": 1}'})
    assert game.num_players() == 2
    state = game.new_initial_state()
    assert state.current_player() in (0, 1)
    assert "moves:" in state.information_state_string(0)


def test_openspiel_ismcts_plays_a_match() -> None:
    pytest.importorskip("pyspiel")
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    import rulelang.openspiel as ro

    game = ro.load_game("thirty-one", players=2, options={"lives": 1}, max_decisions=80)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(
        random_state=np.random.RandomState(1)), uct_c=2.0, max_simulations=8,
        random_state=np.random.RandomState(0))
    bot.set_resampler(ro.resampler)
    rng = random.Random(0)
    state = game.new_initial_state()
    decided = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            decided += 1
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
    assert decided > 0
    assert len(state.returns()) == 2
