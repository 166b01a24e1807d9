"""Any rules file as an OpenSpiel (pyspiel) Python game (the optional extra
``rulelang[openspiel]``).

    game = rulelang.openspiel.load_game("my-game.yaml", players=3)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))

Also registered as ``python_rulelang``: ``pyspiel.load_game("python_rulelang", {"game":
"my-game.yaml", "players": 3, "options": '{"target": 50}'})``.

Chance is *sampled* (``SAMPLED_STOCHASTIC``), not explicit chance nodes: the engine draws from
the state's seeded generator inside its steps (shuffles when a round starts, a stock made again
mid-round, cuts for the dealer), where and how often the rules file says, so there is no point
between two decisions at which a deal could be offered as one chance outcome. Each new initial
state takes its seed from the game's generator (parameter ``seed``); a clone copies the
generator, so that a clone and its original play the same. As for every sampled game, states
cannot be serialised by their history. ``resample(state, player)`` (the resampler of OpenSpiel's
IS-MCTS bot, ``bot.set_resampler``) is ``views.determinize``: the hidden cards dealt anew.

Information-state strings are the seat's view (``view(seat)``) with every move of the match as
that seat saw it; observation strings are the view alone; observation tensors are
``encoding.Encoding``'s (the PettingZoo adapter's). Actions are that module's fixed space.
Returns: 1 shared among the winners at the end of the match, 0 for the others; a match cut off
by ``max_decisions`` ends with 0 for all. docs/environments.md says more. This module is the
last stage: nothing in rulelang imports it, and ``import rulelang`` does not import pyspiel.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from . import load
from .encoding import Encoding, view_text
from .limits import MAX_DECISIONS_PER_GAME
from .movetext import canon_move

SHORT_NAME = "python_rulelang"
_RESAMPLES = random.Random(0)  # the samples of resample() when no generator is given
_DEFAULTS = {"game": "", "players": 0, "options": "{}",
             "max_decisions": MAX_DECISIONS_PER_GAME, "seed": 0}


def _game_type(name: str, lo: int, hi: int) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name=f"rulelang {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS)


def load_game(game: str, players: int | None = None, options: dict[str, Any] | None = None,
              *, max_decisions: int = MAX_DECISIONS_PER_GAME, seed: int = 0) -> RulesGame:
    """A pyspiel game for a rules file or a bundled game's name."""
    return RulesGame({"game": game, "players": players or 0,
                      "options": json.dumps(options or {}), "max_decisions": max_decisions,
                      "seed": seed})


class RulesGame(pyspiel.Game):
    """A rules file at a table of ``players`` seats, a whole match per episode."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = dict(_DEFAULTS, **(params or {}))
        if not p["game"]:
            raise ValueError(f"{SHORT_NAME} needs the parameter 'game': a rules file or the "
                             "name of a bundled game")
        self.rules = load(str(p["game"]), json.loads(str(p["options"])) or None)
        self.n = int(p["players"]) or self.rules.default_players
        self.encoding = Encoding(self.rules, self.n)
        self.max_decisions = int(p["max_decisions"])
        self._seeds = random.Random(int(p["seed"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions, max_chance_outcomes=0,
            num_players=self.n, min_utility=0.0, max_utility=1.0,
            max_game_length=self.max_decisions)
        super().__init__(_game_type(self.rules.name or str(p["game"]), self.n, self.n), info,
                         {**p, "players": self.n})

    def new_initial_state(self) -> RulesState:
        return RulesState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RulesObserver:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return RulesObserver(self, recall)

    def next_seed(self) -> int:
        return self._seeds.getrandbits(63)


class _Box:
    """The engine state, made when first asked for (OpenSpiel's ``Clone`` makes a new initial
    state and then deep-copies this one's attributes over it: a deal made for nothing) and
    copied by the engine's own ``clone`` (a deep copy would copy the whole compiled game)."""

    def __init__(self, game: RulesGame, S: Any = None) -> None:
        self.game, self.S = game, S

    def get(self) -> Any:
        if self.S is None:
            self.S = self.game.rules.new_state(self.game.n, seed=self.game.next_seed())
        return self.S

    def __deepcopy__(self, memo: dict) -> _Box:
        return _Box(self.game, self.get().clone())


class RulesState(pyspiel.State):
    """A match in progress (the engine's ``State`` is ``S``)."""

    def __init__(self, game: RulesGame) -> None:
        super().__init__(game)
        self._box = _Box(game)
        self._seen: list[list[str]] = [[] for _ in range(game.n)]
        self._legal_cache: tuple[int, dict[int, str]] | None = None

    @property
    def _rules_game(self) -> RulesGame:
        return self._box.game

    @property
    def S(self) -> Any:
        return self._box.get()

    def _cut_off(self) -> bool:
        return self.S.decisions >= self._rules_game.max_decisions

    def current_player(self) -> int:
        S = self.S
        if S.is_over() or self._cut_off() or S.current_player() is None:
            return pyspiel.PlayerId.TERMINAL
        return int(S.current_player())

    def _legal(self) -> dict[int, str]:
        S = self.S
        if self._legal_cache is None or self._legal_cache[0] != S.decisions:
            self._legal_cache = (S.decisions, self._rules_game.encoding.legal_indices(S))
        return self._legal_cache[1]

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return sorted(self._legal())

    def _apply_action(self, action: int) -> None:
        S = self.S
        text = self._legal()[int(action)]
        mover = S.current_player()
        entry = S._legal[canon_move(text)]
        # the move as each seat sees it, before it is made (cards unseen then by place)
        for p in range(S.n):
            self._seen[p].append(f"P{mover}: {S.move_text(*entry, p)}")
        S.apply(text)
        self._legal_cache = None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == self.current_player():
            text = self._legal().get(int(action))
            if text is not None:
                return text
        return self._rules_game.encoding.describe(int(action))

    def is_terminal(self) -> bool:
        return self.current_player() == pyspiel.PlayerId.TERMINAL

    def returns(self) -> list[float]:
        S = self.S
        return [float(x) for x in S.returns()] if S.is_over() else [0.0] * S.n

    def resample(self, player: int, rng: random.Random | None = None) -> RulesState:
        """A state that ``player`` cannot tell from this one: the cards it cannot see dealt
        anew (``views.determinize``), its record of the match kept."""
        s = self.clone()
        s._box = _Box(self._box.game, self.S.determinize(player, rng or _RESAMPLES))
        return s

    def __str__(self) -> str:
        S = self.S
        names = S.game.tables.name
        zones = " | ".join(f"{S.znames[z]}:{' '.join(names[c] for c in cs)}"
                           for z, cs in enumerate(S.zones) if cs)
        return (f"round {S.round} phase {S.phase} actor {S.actor} status {S.status} "
                f"decisions {S.decisions}\n{zones}\ncounters {S.ctr}\nglobals {S.g}")


class RulesObserver:
    """OpenSpiel's PyObserver: the encoding as the tensor, the view (and with perfect recall
    the match's moves as the seat saw them) as the string."""

    def __init__(self, game: RulesGame, recall: bool) -> None:
        self.encoding = game.encoding
        self.recall = recall
        self.tensor = np.zeros(game.encoding.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RulesState, player: int) -> None:
        self.tensor[:] = self.encoding.observe(state.S, player)

    def string_from(self, state: RulesState, player: int) -> str:
        text = view_text(state.S, player)
        if self.recall:
            text += "\nmoves: " + "; ".join(state._seen[player])
        return text


def resampler(state: RulesState, player: int) -> RulesState:
    """For ``ISMCTSBot.set_resampler``: a sample of the hidden cards as ``player`` sees them."""
    return state.resample(player)


pyspiel.register_game(_game_type("any rules file", 1, 100), RulesGame)
