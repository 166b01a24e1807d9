"""Any rules file as a PettingZoo AEC environment (the optional extra ``rulelang[pettingzoo]``).

    env = rulelang.pettingzoo.env("my-game.yaml", players=3)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else \\
            env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are ``player_0`` .. ``player_<n-1>`` (seat numbers). An observation is a dict of
``observation`` (float32, the layout of ``encoding.Encoding``) and ``action_mask`` (int8, over
the fixed ``Discrete`` action space of the same module). A match is one episode: the rewards
come at its end, from ``State.returns()`` (1 shared among the winners); a match cut short by
``max_decisions`` is truncated with no reward. Eliminated seats stay agents until the match
ends (they are never selected). docs/environments.md says more. This module is the last stage:
nothing in rulelang imports it, and ``import rulelang`` does not import PettingZoo.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import load
from .encoding import Encoding, view_text
from .limits import MAX_NUMBER


def env(game: str, players: int | None = None, options: dict[str, Any] | None = None, *,
        render_mode: str | None = None, max_decisions: int | None = None) -> RulesEnv:
    """A PettingZoo AEC environment for a rules file or a bundled game's name."""
    return RulesEnv(game, players, options, render_mode=render_mode,
                    max_decisions=max_decisions)


class RulesEnv(AECEnv):
    """One match of a rules file per episode, seat by seat."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "rulelang",
                                          "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None,
                 options: dict[str, Any] | None = None, *, render_mode: str | None = None,
                 max_decisions: int | None = None) -> None:
        super().__init__()
        self.game = load(game, options)
        self.n = self.game.default_players if players is None else players
        self.encoding = Encoding(self.game, self.n)
        self.render_mode = render_mode
        self.max_decisions = max_decisions
        self.metadata = dict(self.metadata, name=f"rulelang:{self.game.name or game}")
        self.possible_agents = [f"player_{p}" for p in range(self.n)]
        obs = spaces.Dict({
            "observation": spaces.Box(-float(MAX_NUMBER), float(MAX_NUMBER), (self.encoding.size,),
                                      np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoding.num_actions,), np.int8),
        })
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoding.num_actions)
                              for a in self.possible_agents}
        self._seeds = random.Random()
        # the match in progress (an engine State); not `state`, which AECEnv keeps for the
        # global state of centralised critics (not provided here)
        self.match: Any = None
        self._legal: dict[int, str] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new match. ``seed`` fixes this match and the ones after it; ``options`` (of the
        AEC API) is not used: a game's options are given to ``env()``."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.match = self.game.new_state(self.n, seed=self._seeds.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move()

    def _after_move(self) -> None:
        S = self.match
        if S.is_over():
            for p, a in enumerate(self.possible_agents):
                self.rewards[a] = float(S.returns()[p])
                self.terminations[a] = True
        elif self.max_decisions is not None and S.decisions >= self.max_decisions:
            for a in self.agents:
                self.truncations[a] = True
        if S.current_player() is None:
            self.agent_selection = self.agents[0]
            self._legal = {}
        else:
            self.agent_selection = self.possible_agents[S.current_player()]
            self._legal = self.encoding.legal_indices(S)
        for p, a in enumerate(self.possible_agents):
            self.infos[a] = {"legal_moves": list(self._legal.values())
                             if a == self.agent_selection else [], "seat": p}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.encoding.num_actions, np.int8)
        if agent == self.agent_selection and self._legal:
            mask[list(self._legal)] = 1
        obs = np.asarray(self.encoding.observe(self.match, seat), np.float32)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        i = int(action)
        if i not in self._legal:
            raise ValueError(f"action {i} is not legal for {agent} now "
                             f"({self.encoding.describe(i)}); see the action mask")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.match.apply(self._legal[i])
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The view of the seat to move (or seat 0 once the match is over) as text."""
        if self.match is None:
            return None
        seat = self.match.current_player()
        text = view_text(self.match, 0 if seat is None else seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.match = None

