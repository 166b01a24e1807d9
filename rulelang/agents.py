"""Stage 7: bots. Each sees only its seat's view; bots that look ahead sample the hidden cards.

``random`` picks uniformly among the legal moves. ``greedy`` looks one move ahead: for each
legal move it plays the move in a few sampled worlds (the hidden cards shuffled among their
places, ``State.determinize``) and keeps the move whose mean score, by the rules file's declared
heuristic for the mover, is highest, within a budget of work per decision of its own (see
``GreedyAgent.choose_index``). Neither knows any game.
"""

from __future__ import annotations

import random
from typing import Any

from .errors import RulesError, RuntimeRulesError, UsageError
from .ismcts import ISMCTSAgent
from .ismctsspec import parse_spec
from .limits import MAX_BOT_WORK
from .runtime import LIMIT, WORK, OutOfWork


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

    def __init__(self, seed: int = 0, samples: int = 3, budget: int | None = None) -> None:
        super().__init__(seed)
        self.samples = samples
        # the work one decision's look-ahead may do (limits.MAX_BOT_WORK; see _Thinking)
        self.budget = MAX_BOT_WORK if budget is None else budget

    def choose(self, state: Any, seat: int) -> str:
        return state.legal_moves()[self.choose_index(state, seat)]

    def choose_index(self, state: Any, seat: int) -> int:
        """The index in ``legal_moves()`` of the move with the best mean heuristic over a few
        sampled worlds. A sampled world has the same legal moves in the same order (they
        name unseen cards by place), so moves are played by index, with no texts.

        The look-ahead has a budget of work of its own (``self.budget``), apart from the
        game's: when it runs out, the bot chooses among the moves it has judged in every
        world (at random, with its own generator, if none yet). Work is counted the same
        whatever ran before, so the choice is as deterministic as the game."""
        n = state.num_moves()
        if n == 1:
            return 0
        game = state.game
        if game.heuristic is None:
            return int(self.rng.random() * n)
        h = game.functions[game.heuristic].fn
        think = _Thinking(self.budget, state.max_work)
        worlds = [state.determinize(seat, self.rng) for _ in range(self.samples)]
        # each world's moves are worked out once; its clones below share them; a world
        # whose moves cannot be listed is left out
        counts = []
        kept = []
        for w in worlds:
            w.work_done = 0  # what a sample does is the bot's, not the game's
            count = think.listing(w)
            if count is _FAILED:
                continue
            if count is _SPENT:
                break
            kept.append(w)
            counts.append(count)
        texts: list[str] | None = None
        best: list[int] = []
        best_score = float("-inf")
        for i in range(n if kept and not think.spent else 0):
            total = 0.0
            for w, count in zip(kept, counts):
                s = w.clone(share_rng=True)
                s.auto_continue = False
                if count == n:
                    done = think.judge(s, i, None, h, seat)
                else:  # the sample disagrees about the moves: fall back to the text
                    texts = texts or state.legal_moves()
                    done = think.judge(s, i, texts[i], h, seat)
                if done is _SPENT:
                    break
                if done is _FAILED:
                    total += float("-inf")
                else:  # a number; anything else is the heuristic's error, not the sample's
                    total += _score(done, game.functions[game.heuristic])
            if think.spent:  # this move was not judged in every world
                break
            score = total / len(kept)
            if score > best_score + 1e-9:
                best, best_score = [i], score
            elif abs(score - best_score) <= 1e-9:
                best.append(i)
        if best:
            return best[int(self.rng.random() * len(best))]
        # no move judged in every world: at random if the budget ran out first (else every
        # move failed somewhere: the first)
        return int(self.rng.random() * n) if think.spent else 0


_FAILED = object()  # a sampled step or heuristic that raised a rules error
_SPENT = object()  # the look-ahead's budget ran out


class _Thinking:
    """A bot's budget of work for one decision. Every step, legal-move listing and heuristic
    run on a sampled world gets, as its allowance, the least of the game's step allowance
    and what is left of the budget, and is charged what it used (at least one unit each).
    A run that exhausts an allowance cut short by the budget ends the thinking (``spent``);
    any other rules error is that sample's failure (the move scores minus infinity there)."""

    def __init__(self, budget: int, step_limit: int) -> None:
        self.left = budget
        self.step_limit = step_limit
        self.spent = False

    def _allowance(self, s: Any) -> int:
        """Give the sample ``s`` the allowance of its next run: 0 when the budget is gone."""
        left, limit = self.left, self.step_limit
        allowance = s.max_work = left if left < limit else limit
        return allowance if left > 0 else 0

    def _out(self, allowance: int) -> Any:
        """A run that used up its allowance: the budget's end when the budget cut it."""
        self.left -= allowance
        if allowance < self.step_limit:
            self.spent = True
            return _SPENT
        return _FAILED

    def listing(self, w: Any) -> Any:
        """How many legal moves the sampled world ``w`` has (or _FAILED, or _SPENT)."""
        allowance = self._allowance(w)
        if not allowance:
            self.spent = True
            return _SPENT
        try:
            out = w.num_moves()
        except OutOfWork:
            return self._out(allowance)
        except RulesError:  # a listing adds what it used to the world's count, unless it fails
            self.left -= max(1, w.work_done + allowance - WORK[0])
            return _FAILED
        self.left -= max(1, w.work_done)
        return out

    def judge(self, s: Any, i: int, text: str | None, h: Any, seat: int) -> Any:
        """Play move ``i`` (or ``text``) on the sample ``s`` (a clone, counting from the
        work of its world) and score it by the heuristic ``h`` for ``seat``: the score, or
        _FAILED, or _SPENT."""
        allowance = self._allowance(s)
        if not allowance:
            self.spent = True
            return _SPENT
        before = s.work_done
        try:
            if text is None:
                s.apply_index(i)
            else:
                s.apply(text)
        except OutOfWork:
            return self._out(allowance)
        except RulesError:
            self.left -= max(1, s.work_done - before + allowance - WORK[0])
            return _FAILED
        self.left -= max(1, s.work_done - before)
        if s.choice is not None and s.actor == seat and s.status == "play":
            return self.complete(s, h, seat)
        # the heuristic is not a step of the sample's: its allowance is given here
        allowance = self._allowance(s)
        if not allowance:
            self.spent = True
            return _SPENT
        WORK[0] = LIMIT[0] = allowance
        try:
            out = h(s, seat)
        except OutOfWork:
            return self._out(allowance)
        except RulesError:
            out = _FAILED
        self.left -= max(1, allowance - WORK[0])
        return out

    def complete(self, s: Any, h: Any, seat: int) -> Any:
        """A sequential choice under way (choice.py): an item is worth the best whole choice
        it leads to, each completion judged as a move is (the heuristic sees only whole
        choices played)."""
        s.work_done = 0  # what ``listing`` charges: this listing's work alone
        count = self.listing(s)
        if count is _SPENT or count is _FAILED:
            return count
        best: Any = _FAILED
        for j in range(count):
            done = self.judge(s.clone(share_rng=True), j, None, h, seat)
            if done is _SPENT:
                return _SPENT
            if done is not _FAILED and (best is _FAILED or _number(done) > _number(best)):
                best = done
        return best


def _number(v: Any) -> float:
    """A heuristic's value for comparing completions (a non-number is judged as scored)."""
    return float(v) if isinstance(v, (int, float)) and -1e308 < v < 1e308 else \
        (float("inf") if isinstance(v, (int, float)) and v > 0 else float("-inf"))


def _score(v: Any, fn: Any) -> float:
    """A heuristic's value as a float: a number too large for one is infinite; anything but a
    number (a function the checker could not type) is the rules' error, at the function."""
    if type(v) is float:
        return v
    if isinstance(v, int):  # a bool too, as 0 or 1
        return float(v) if -1e308 < v < 1e308 else float("inf") if v > 0 else float("-inf")
    raise RuntimeRulesError(f"the heuristic '{fn.name}' computed {v!r:.60}, not a number", fn.span)


AGENTS: dict[str, type[Agent]] = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: int, bot_work: int | None = None) -> Agent:
    """The agent called ``name``; ``bot_work``: the work a bot that looks ahead may do for
    one decision (default limits.MAX_BOT_WORK)."""
    if name.strip().lower().split(":")[0] == "ismcts":
        return ISMCTSAgent(seed, budget=bot_work, **parse_spec(name))  # type: ignore[return-value]
    cls = AGENTS.get(name.strip().lower())
    if cls is None:
        raise UsageError(f"unknown agent '{name}'; agents: {', '.join(AGENTS)}")
    if cls is GreedyAgent:
        return GreedyAgent(seed, budget=bot_work)
    return cls(seed)


def parse_agents(spec: str | None, players: int) -> list[str]:
    """``A,B`` for the seats in order; a short list repeats its last entry."""
    names = [a.strip().lower() for a in (spec or "random").split(",") if a.strip()]
    if not names:
        names = ["random"]
    for a in names:
        if a.split(":")[0] == "ismcts":
            parse_spec(a)  # its budget and settings, checked before any game is played
        elif a not in AGENTS:
            raise UsageError(f"unknown agent '{a}'; agents: {', '.join(AGENTS)}, ismcts")
    if len(names) > players:
        raise UsageError(f"--agents names {len(names)} agents for {players} players")
    return names + [names[-1]] * (players - len(names))
