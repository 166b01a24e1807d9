"""Stage 7: bots. Each sees only its seat's view; bots that look ahead sample the hidden cards.

``random`` picks uniformly among the legal moves. ``greedy`` looks one move ahead: for each
legal move it plays the move in a few sampled worlds (the hidden cards shuffled among their
places, ``State.determinize``) and keeps the move whose mean score, by the rules file's declared
heuristic for the mover, is highest. Neither knows any game.
"""

from __future__ import annotations

import random
from typing import Any

from .errors import RulesError, RuntimeRulesError, UsageError


class Agent:
    name = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: Any, seat: int) -> str:  # pragma: no cover - interface
        raise NotImplementedError

    def choose_index(self, state: Any, seat: int) -> int:
        """The chosen move as its index in ``legal_moves()``."""
        return state.legal_moves().index(self.choose(state, seat))


class RandomAgent(Agent):
    name = "random"

    def choose(self, state: Any, seat: int) -> str:
        moves = state.legal_moves()
        return moves[int(self.rng.random() * len(moves))]

    def choose_index(self, state: Any, seat: int) -> int:
        """The same choice as ``choose``, as an index: no move texts needed."""
        return int(self.rng.random() * state.num_moves())


class GreedyAgent(Agent):
    name = "greedy"

    def __init__(self, seed: int = 0, samples: int = 3) -> None:
        super().__init__(seed)
        self.samples = samples

    def choose(self, state: Any, seat: int) -> str:
        return state.legal_moves()[self.choose_index(state, seat)]

    def choose_index(self, state: Any, seat: int) -> int:
        """The index in ``legal_moves()`` of the move with the best mean heuristic over a few
        sampled worlds. A sampled world has the same legal moves in the same order (they
        name unseen cards by place), so moves are played by index, with no texts."""
        n = state.num_moves()
        if n == 1:
            return 0
        game = state.game
        if game.heuristic is None:
            return int(self.rng.random() * n)
        h = game.functions[game.heuristic].fn
        worlds = [state.determinize(seat, self.rng) for _ in range(self.samples)]
        # each world's moves are worked out once; its clones below share them
        counts = [w.num_moves() for w in worlds]
        texts: list[str] | None = None
        best: list[int] = []
        best_score = float("-inf")
        for i in range(n):
            total = 0.0
            for w, count in zip(worlds, counts):
                s = w.clone(share_rng=True)
                s.auto_continue = False
                try:
                    if count == n:
                        s.apply_index(i)
                    else:  # the sample disagrees about the moves: fall back to the text
                        texts = texts or state.legal_moves()
                        s.apply(texts[i])
                    v = h(s, seat)
                except RulesError:
                    v = float("-inf")
                total += _score(v, game.functions[game.heuristic])
            score = total / len(worlds)
            if score > best_score + 1e-9:
                best, best_score = [i], score
            elif abs(score - best_score) <= 1e-9:
                best.append(i)
        return best[int(self.rng.random() * len(best))] if best else 0


def _score(v: Any, fn: Any) -> float:
    """A heuristic's value as a float: a number too large for one is infinite; anything but a
    number (a function the checker could not type) is the rules' error, at the function."""
    if type(v) is float:
        return v
    if isinstance(v, int):  # a bool too, as 0 or 1
        return float(v) if -1e308 < v < 1e308 else float("inf") if v > 0 else float("-inf")
    raise RuntimeRulesError(f"the heuristic '{fn.name}' computed {v!r:.60}, not a number", fn.span)


AGENTS: dict[str, type[Agent]] = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: int) -> Agent:
    cls = AGENTS.get(name.strip().lower())
    if cls is None:
        raise UsageError(f"unknown agent '{name}'; agents: {', '.join(AGENTS)}")
    return cls(seed)


def parse_agents(spec: str | None, players: int) -> list[str]:
    """``A,B`` for the seats in order; a short list repeats its last entry."""
    names = [a.strip().lower() for a in (spec or "random").split(",") if a.strip()]
    if not names:
        names = ["random"]
    for a in names:
        if a not in AGENTS:
            raise UsageError(f"unknown agent '{a}'; agents: {', '.join(AGENTS)}")
    if len(names) > players:
        raise UsageError(f"--agents names {len(names)} agents for {players} players")
    return names + [names[-1]] * (players - len(names))
