"""Any rules file as an RLCard environment (the optional extra ``rulelang[rlcard]``).

    env = rulelang.rlcard.make("my-game.yaml", players=2, seed=0)
    env.set_agents([RandomAgent(env.num_actions) for _ in range(env.num_players)])
    trajectories, payoffs = env.run(is_training=False)

The object has RLCard's ``Env`` interface (``rlcard.envs.Env``), duck-typed rather than derived
from it (RLCard's base class wants a game object of its own kind): ``reset()`` and ``step()``
give ``(state, player_id)``, a state being a dict of ``obs`` (float32, the layout of
``encoding.Encoding``, the same numbers as the PettingZoo and OpenSpiel adapters),
``legal_actions`` (an ``OrderedDict`` of the legal action ids, over the same fixed action
space), ``raw_obs`` (``State.view`` of the seat), ``raw_legal_actions`` (the move texts, in the
order of ``legal_actions``) and ``action_record``. ``step_back()`` works when the env is made
with ``allow_step_back=True`` (a clone of the match per step, as RLCard's games keep copies);
``run()``, ``set_agents()``, ``get_payoffs()`` (``State.returns()``: 1 shared among the winners,
0 for the others), ``get_state()``, ``is_over()``, ``get_player_id()``, ``num_players``,
``num_actions``, ``state_shape``, ``action_shape`` as RLCard has them. One episode is one match
(docs/environments.md). This module is the last stage: nothing in rulelang imports it, and
``import rulelang`` does not import RLCard.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any

import numpy as np

from . import load
from .encoding import Encoding


class Obs(np.ndarray):
    """An observation vector. RLCard's tabular agents (``CFRAgent``) key their tables on
    ``obs.tostring()``, which NumPy 2.3 removed: here it is ``tobytes()`` again."""

    def tostring(self) -> bytes:  # type: ignore[override]
        return self.tobytes()


def make(game: str, players: int | None = None, options: dict[str, Any] | None = None, *,
         seed: int | None = None, allow_step_back: bool = False,
         max_decisions: int | None = None) -> RulesEnv:
    """An RLCard environment for a rules file or a bundled game's name."""
    return RulesEnv(game, players, options, seed=seed, allow_step_back=allow_step_back,
                    max_decisions=max_decisions)


class RulesEnv:
    """One match of a rules file per episode, with RLCard's ``Env`` interface."""

    def __init__(self, game: str, players: int | None = None,
                 options: dict[str, Any] | None = None, *, seed: int | None = None,
                 allow_step_back: bool = False, max_decisions: int | None = None) -> None:
        self.game = load(game, options)
        self.name = f"rulelang:{self.game.name or game}"
        self.num_players = n = self.game.default_players if players is None else players
        self.encoding = Encoding(self.game, n)
        self.num_actions = self.encoding.num_actions
        self.state_shape = [[self.encoding.size] for _ in range(n)]
        self.action_shape: list[Any] = [None for _ in range(n)]
        self.allow_step_back = allow_step_back
        self.max_decisions = max_decisions
        self.agents: list[Any] = []
        self.action_recorder: list[tuple[int, str]] = []
        self.timestep = 0
        self.match: Any = None  # the match in progress (an engine State)
        self.history: list[tuple[Any, list[tuple[int, str]]]] = []
        self._legal: dict[int, str] = {}
        self.seed(seed)

    def seed(self, seed: int | None = None) -> int | None:
        """Fix the matches from the next ``reset()`` on (each draws its seed from a generator
        seeded with ``seed``; None: from the system)."""
        self._seeds = random.Random(seed)
        return seed

    # ------------------------------------------------------------------ episode

    def reset(self) -> tuple[dict[str, Any], int]:
        """A new match: the first state of the seat to move, and that seat."""
        self.match = self.game.new_state(self.num_players, seed=self._seeds.getrandbits(63))
        self.action_recorder = []
        self.history = []
        self._refresh()
        player = self.get_player_id()
        return self.get_state(player), player

    def _refresh(self) -> None:
        S = self.match
        self._legal = {} if S.current_player() is None else self.encoding.legal_indices(S)

    def step(self, action: Any, raw_action: bool = False) -> tuple[dict[str, Any], int]:
        """Play an action id (or, with ``raw_action``, a move text): the next state of the
        seat to move, and that seat."""
        S = self.match
        if raw_action:
            text = str(action)
        else:
            i = int(action)
            if i not in self._legal:
                raise ValueError(f"action {i} is not legal now ({self.encoding.describe(i)}); "
                                 "see state['legal_actions']")
            text = self._legal[i]
        if self.allow_step_back:
            self.history.append((S.clone(), self.action_recorder[:]))
        self.timestep += 1
        self.action_recorder.append((S.current_player(), text))
        S.apply(text)
        self._refresh()
        player = self.get_player_id()
        return self.get_state(player), player

    def step_back(self) -> Any:
        """Undo the last step: ``(state, player_id)``, or False at the start of the match."""
        if not self.allow_step_back:
            raise Exception("Step back is off. To use step_back, make the env with "
                            "allow_step_back=True")
        if not self.history:
            return False
        self.match, self.action_recorder = self.history.pop()
        self._refresh()
        player = self.get_player_id()
        return self.get_state(player), player

    def set_agents(self, agents: list[Any]) -> None:
        """The agents ``run()`` plays, one per seat (RLCard's agents: ``step``, ``eval_step``,
        ``use_raw``)."""
        self.agents = agents

    def run(self, is_training: bool = False) -> tuple[list[list[Any]], np.ndarray]:
        """A whole match by the agents set: each seat's trajectory (state, action, state, ...,
        the final state) and the payoffs, as RLCard's ``Env.run``."""
        trajectories: list[list[Any]] = [[] for _ in range(self.num_players)]
        state, player = self.reset()
        trajectories[player].append(state)
        while not self.is_over():
            agent = self.agents[player]
            action = agent.step(state) if is_training else agent.eval_step(state)[0]
            state, nxt = self.step(action, agent.use_raw)
            trajectories[player].append(action)
            player = nxt
            if not self.is_over():
                trajectories[player].append(state)
        for p in range(self.num_players):
            trajectories[p].append(self.get_state(p))
        return trajectories, self.get_payoffs()

    # ------------------------------------------------------------------ reading the match

    def is_over(self) -> bool:
        """The match is over (or cut off at ``max_decisions``)."""
        S = self.match
        return bool(S.is_over() or (self.max_decisions is not None
                                    and S.decisions >= self.max_decisions))

    def get_player_id(self) -> int:
        """The seat to move (0 once the match is over, as RLCard's games keep a seat there)."""
        p = self.match.current_player()
        return 0 if p is None or self.is_over() else int(p)

    def get_payoffs(self) -> np.ndarray:
        """Each seat's payoff: 1 shared among the winners, 0 for the others (all 0 for a match
        cut off at ``max_decisions``)."""
        if not self.match.is_over():
            return np.zeros(self.num_players)
        return np.asarray(self.match.returns(), dtype=np.float64)

    def get_state(self, player_id: int) -> dict[str, Any]:
        """What ``player_id`` sees: ``obs``, and its legal actions when it is to move."""
        S = self.match
        obs = np.asarray(self.encoding.observe(S, player_id), np.float32).view(Obs)
        mine = not self.is_over() and S.current_player() == player_id
        legal = self._legal if mine else {}
        return {"obs": obs,
                "legal_actions": OrderedDict((i, None) for i in legal),
                "raw_obs": S.view(player_id),
                "raw_legal_actions": list(legal.values()),
                "action_record": self.action_recorder}

    def get_perfect_information(self) -> dict[str, Any]:
        """Every seat's view, and the seat to move (RLCard's whole-table record)."""
        S = self.match
        return {"views": [S.view(p) for p in range(self.num_players)],
                "current_player": S.current_player()}

    def get_action_feature(self, action: int) -> np.ndarray:
        """An action as a one-hot vector (RLCard's default)."""
        feature = np.zeros(self.num_actions, dtype=np.int8)
        feature[action] = 1
        return feature
