"""The ``ismcts`` bot: information-set Monte Carlo tree search, generic over every game.

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, 2012). Each iteration samples a world
from the bot's own view (``State.determinize``: the cards it cannot see dealt again among their
places), walks the one tree of the search in that world — choosing among the moves legal
*there* by UCB1 with availability counts — adds one node, plays the world on to the end of the
round by the playout policy, and credits every move on the path with the result for the seat
that made it. The move most visited at the root is played (but see the guard below).
Moves are told apart by their texts, so a move means the same thing in every sampled world;
the playouts go by index.

Whose moves the tree holds: by default only the searching seat's. The other seats play by the
playout policy wherever they move, in the tree's part of an iteration too (``:tree``: their
moves are searched by UCB1 as well, the textbook form). Searched, an opponent's reply is
explored at random until its node has been visited many times, so a search of a few hundred
iterations met a random opponent (it ended rounds early with a poor hand, as if the others
could not answer); played by the greedy policy, the opponent answers as a player who wants
its heuristic up, and the search improves on that policy (a rollout algorithm, Tesauro and
Galperin 1996). The playouts are greedy by default (``:random``): each step plays the move best
for its mover by the rules file's ``heuristic``, one step ahead in the sampled world, judged
among at most ``GREEDY_CANDIDATES`` moves (the others' replies to the seat's move: up to
``GREEDY_REPLY``, so that a move is judged against their best answer), for at most
``GREEDY_DEPTH`` decisions.

What a playout is worth to a seat: its share of the win when the match ended in it (0 for a
seat put out of play), else how much more the rules file's ``heuristic`` rose for it during the
playout than for the other seats in play on average, scaled to [0, 1] by the range of such
differences met in this decision (``_mean``). Scaled, not ranked: a place (``:place``, the
earlier way) told "lost one life" from "lost two" no better than "lost" from "won", so a
gamble whose failure costs double looked as good as a safe move (the search ended rounds
early with weak hands); a change, not a level, so where the match already stood does not count.

Samples (``State.determinize``) keep the cards the seat saw go into a hidden place there (a
card another seat took from a face-up pile stays in its hand: known.py; ``:uniform`` deals
every unseen card anew; ``:infer`` draws them from worlds weighted by how likely the others'
moves of the round were in each under the greedy policy: infer.py). The tree stops where
another seat moves (``:deep`` keeps the seat's later moves in it too), and by default it holds
only the seat's first move: the rest of that turn (a discard after a draw) is the policy's,
judged among every legal move (``:turn``: searched by UCB1 in the tree, the earlier way; the
poor moves its exploration tried lowered the mean of every move a turn goes on from, so a
move that ends the turn looked better than one the turn goes on from: docs/agents.md). And
the move played is the greedy policy's own (judged as the ``greedy`` bot judges) unless the
search found another better by ``guard`` standard errors: a few hundred iterations estimate a
move's worth to a few hundredths, and a search that plays its noisy best plays worse than the
policy it improves on wherever the moves differ by less.

Budget: a number of iterations (deterministic: the same seed, the same choice) or
milliseconds of CPU per decision (``ismcts:200ms``: stronger on a faster machine, so not
reproducible), and always a budget of work (``limits.ISMCTS_WORK``, ``--bot-work``) that
bounds what a hostile rules file can make one decision cost. A random playout stops after
``limits.ISMCTS_PLAYOUT`` decisions and is judged where it stands (by the heuristic):
a round of a shedding game between random players can last ~600 decisions, and a search
plays a thousand of them.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from .errors import RulesError
from .infer import Particles
from .ismctsspec import DEEP, DEFAULT_ITERATIONS, FLAT, GUARD, UCT_C
from .ismctsspec import parse_spec as parse_spec  # re-exported: tests name it here
from .limits import ISMCTS_PLAYOUT, ISMCTS_WORK
from .playout import greedy_step
from .runtime import LIMIT, WORK, OutOfWork
from .views import Sampler

ROLLOUT_DEPTH = ISMCTS_PLAYOUT  # decisions a playout may take before it is judged as it is
GREEDY_DEPTH = 24  # decisions a greedy playout takes at most (each costs a few steps)
GREEDY_SAMPLES = 3  # samples the greedy policy's own move is judged in (as the greedy bot's)


class _Edge:
    __slots__ = ("visits", "total", "raw", "nraw", "avail", "child")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0  # results already in [0, 1] (a share of the win, a place)
        self.raw = 0.0  # heuristic differences, scaled to [0, 1] when read (see _mean)
        self.nraw = 0
        self.avail = 0
        self.child: dict[str, _Edge] = {}


class ISMCTSAgent:
    """An agent as ``agents.Agent`` is one (``choose``, ``choose_index``), made by
    ``agents.make_agent`` for ``ismcts[:…]``."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int | None = DEFAULT_ITERATIONS,
                 ms: int | None = None, rollout: str = "greedy", c: float = UCT_C,
                 budget: int | None = None, opponents: str = "policy", value: str = "scaled",
                 known: bool = True, deep: bool | None = None,
                 guard: float | None = None, infer: bool = False,
                 flat: bool | None = None) -> None:
        self.rng = random.Random(seed)
        self.opponents = opponents
        self.iterations = iterations
        self.ms = ms
        self.rollout = rollout
        self.c = c
        self.budget = ISMCTS_WORK if budget is None else budget
        self.last_iterations = 0  # how many the last decision ran (for tools and tests)
        self._left = self.budget
        self.last_visits: dict[str, int] = {}
        self.last_values: dict[str, float] = {}  # the root's mean result by move (tools)
        self.value_mode = value
        self.known = known  # samples keep the cards the seat saw go into hidden places
        # False: the tree holds the seat's moves only until another seat moves (the policy
        # plays on from there); True: its later moves too
        self.deep = DEEP if deep is None else deep
        # True: the tree holds the seat's first move only; the rest of its turn is the
        # policy's, judged among every move (up to GREEDY_REPLY), as the others' replies are
        self.flat = (FLAT and not self.deep) if flat is None else flat
        self._follow = False  # the policy plays the rest of the searched move's turn (flat)
        self.lo, self.hi = math.inf, -math.inf  # the raw results' range in this decision
        self._world: Any = None  # the iteration's sampled world as it now is (_greedy_step)
        # the others are replying to the tree's last move (the seat's, unless :tree): their
        # greedy steps judge up to GREEDY_REPLY moves, not GREEDY_CANDIDATES (until the seat
        # moves again)
        self._replying = False
        self._seat = -1
        # (state, seat, heuristic, its work): the last greedy step's judgement of the state it
        # made the world, while nothing has moved in it since (_values reads it, not again)
        self._judged: Any = None
        # the greedy policy's move is played unless another's mean beats it by this many
        # standard errors (0: the most visited move, as plain IS-MCTS)
        self.guard = GUARD if guard is None else guard
        # samples drawn from worlds weighted by the others' moves (infer.py), made at the
        # first decision with a heuristic
        self.infer = infer
        self._particles: Particles | None = None
        self._sample: Any = None  # the decision's sampler (views.Sampler.sample)

    def choose(self, state: Any, seat: int) -> str:
        return state.legal_moves()[self.choose_index(state, seat)]

    def choose_index(self, state: Any, seat: int) -> int:
        n = state.num_moves()
        if n == 1:
            return 0
        root_moves = state.legal_moves()
        if self.known:
            state.track_known()
        # the decision's samples (State.determinize), the places of the unseen cards found once
        self._sample = Sampler(state, seat, self.known).sample
        root = _Edge()
        game = state.game
        h = game.functions[game.heuristic].fn if game.heuristic is not None else None
        deadline = (time.process_time() + self.ms / 1000.0) if self.ms is not None else None
        left = self.budget
        done = 0
        self.lo, self.hi = math.inf, -math.inf
        self._left = left
        default = self._default(state, seat, h, n) if self.guard else None
        left = self._left
        particles = None
        if self.infer and h is not None:
            if self._particles is None:
                self._particles = Particles(seat, self.rng, h, self.budget // 4)
            particles = self._particles
            particles.update(state, self.known)
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and time.process_time() >= deadline:
                break
            if left <= 0:
                break
            done += 1
            world = particles.sample() if particles is not None else None
            if world is None:
                world = self._sample(self.rng)
            world.auto_continue = False
            world.work_done = 0
            world.max_work = min(world.max_work, left)
            self._left = left
            self._world = world
            self._judged = None
            self._seat, self._replying, self._follow = seat, False, False
            try:
                # each seat's heuristic before the search moves: a playout is judged by what
                # it changed, not by where the match already stood (a seat two lives down
                # would rank last after every playout, whatever it chose)
                start = ({p: self._judge(world, h, world, p) for p in range(world.n)
                          if world.active[p]} if h is not None else {})
                path = self._descend(world, root, seat, h)
                # a greedy step may leave the iteration's world in another state object
                self._play_out(self._world, h)
                world = self._world
                value, raw = self._values(world, h, start)
            except OutOfWork:
                left = 0
                break
            except RulesError:  # this sample cannot be played on: it teaches nothing
                left -= max(1, self._world.work_done)
                continue
            left -= max(1, world.work_done)
            for edge, actor in path:
                edge.visits += 1
                if raw and actor in raw:
                    edge.raw += value[actor]
                    edge.nraw += 1
                else:
                    edge.total += value[actor]
        self.last_iterations = done
        # the root's visits by move: the whole search in one figure (tests, tools)
        self.last_visits = {m: e.visits for m, e in root.child.items()}
        self.last_values = {m: self._mean(e) for m, e in root.child.items() if e.visits}
        best = max(range(n), key=lambda i: (root.child[root_moves[i]].visits
                                            if root_moves[i] in root.child else -1,
                                            -i))
        if default is not None and default != best and root_moves[default] in root.child \
                and root_moves[best] in root.child:
            # the policy's own move unless the search found a better one beyond its noise
            eb, ed = root.child[root_moves[best]], root.child[root_moves[default]]
            mb, md = self._mean(eb), self._mean(ed)
            noise = math.sqrt(max(mb * (1 - mb), 0.01) / eb.visits
                              + max(md * (1 - md), 0.01) / max(1, ed.visits))
            if mb - md < self.guard * noise:
                best = default
        if root_moves[best] not in root.child:  # nothing was learnt: any move
            return int(self.rng.random() * n)
        return best

    def _default(self, state: Any, seat: int, h: Any, n: int) -> int | None:
        """The move the greedy policy plays here, judged as the ``greedy`` bot judges (the
        mean heuristic one step ahead over ``GREEDY_SAMPLES`` samples): None without a
        heuristic or when a sample cannot be judged. Its work comes out of the budget."""
        if h is None:
            return None
        totals = [0.0] * n
        try:
            for _ in range(GREEDY_SAMPLES):
                w = self._sample(self.rng)
                w.auto_continue = False
                w.work_done = 0
                w.max_work = min(w.max_work, self._left)
                if w.num_moves() != n:
                    return None
                for i in range(n):
                    s = w.clone(share_rng=True)
                    s.apply_index(i)
                    w.work_done = s.work_done
                    totals[i] += self._judge(w, h, s, seat)
                self._left -= max(1, w.work_done)
        except (OutOfWork, RulesError):
            return None
        return max(range(n), key=lambda i: (totals[i], -i))

    def _descend(self, world: Any, node: _Edge, seat: int, h: Any) -> list[tuple[_Edge, int]]:
        """Selection and expansion in one sampled world: the edges taken, each with the seat
        that chose it."""
        path: list[tuple[_Edge, int]] = []
        policy = self.opponents == "policy"
        others = 0  # the other seats' moves since the seat's last: a playout's, bounded alike
        while world.status == "play":
            self._check(world)
            actor = world.current_player()
            if policy and actor != seat:
                if others >= ROLLOUT_DEPTH or (path and not self.deep):
                    return path
                others += 1
                self._policy_step(world, h)
                world = self._world
                continue
            others = 0
            if path and self.flat and policy:
                self._follow = True  # the seat's next moves of the turn: the policy's
                return path
            moves = world.legal_moves()
            kids = node.child
            untried = [m for m in moves if m not in kids]
            for m in moves:
                e = kids.get(m)
                if e is not None:
                    e.avail += 1
            if untried:
                m = untried[int(self.rng.random() * len(untried))]
                e = kids[m] = _Edge()
                e.avail = 1
                world.apply(m)
                self._judged = None
                self._replying = True
                path.append((e, actor))
                return path
            c = self.c
            best_m, best_v = moves[0], -1.0
            for m in moves:
                e = kids[m]
                if not e.visits:  # added by an iteration whose sample failed: try it first
                    best_m = m
                    break
                v = self._mean(e) + c * math.sqrt(math.log(e.avail) / e.visits)
                if v > best_v:
                    best_m, best_v = m, v
            e = kids[best_m]
            world.apply(best_m)
            self._judged = None
            self._replying = True
            path.append((e, actor))
            node = e
        return path

    def _play_out(self, world: Any, h: Any) -> None:
        depth = GREEDY_DEPTH if self.rollout == "greedy" and h is not None else ROLLOUT_DEPTH
        for _ in range(depth):
            if world.status != "play":
                return
            self._check(world)
            self._policy_step(world, h)
            world = self._world

    def _policy_step(self, world: Any, h: Any) -> None:
        self._judged = None
        k = world.num_moves()
        if world.actor != self._seat:
            self._follow = False
        elif not self._follow:  # the seat's own playout moves: the replies are over
            self._replying = False
        if self.rollout == "greedy" and h is not None and k > 1:
            self._greedy_step(world, k, h)
        else:
            world.apply_index(int(self.rng.random() * k))

    # the greedy step (playout.py; a method, so that a test can put the old step in its place)
    _greedy_step = greedy_step

    def _judge(self, world: Any, h: Any, s: Any, seat: int) -> float:
        """The heuristic of ``seat`` in ``s``, charged to the playout of ``world``: it runs
        outside any step, so it is given the step allowance here."""
        self._check(world)
        WORK[0] = LIMIT[0] = world.max_work
        v = h(s, seat)
        world.work_done += max(1, world.max_work - WORK[0])
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise RulesError(f"the heuristic computed {v!r:.60}, not a number")
        return float(v)

    def _check(self, world: Any) -> None:
        """Stop the decision when this playout has used what was left of the budget."""
        if world.work_done >= self._left:
            raise OutOfWork("the bot's budget of work for this decision is spent")

    def _mean(self, e: _Edge) -> float:
        """The edge's mean result in [0, 1]: its results in [0, 1] as they are, its heuristic
        differences scaled by the range met so far in this decision (lowest 0, highest 1;
        the scaling is linear, so the sum scales as its terms would)."""
        lo, hi = self.lo, self.hi
        scaled = (e.raw - e.nraw * lo) / (hi - lo) if hi > lo else 0.5 * e.nraw
        return (e.total + scaled) / e.visits

    def _values(self, world: Any, h: Any, start: dict[int, float]) -> tuple[list[float], Any]:
        """What the played-out world is worth to each seat, and the seats whose worth is a raw
        heuristic difference (None: all in [0, 1]). Its share of the win if the match ended
        (0 for a seat put out of play); else, by default, how much more its heuristic rose
        than the others' did on average (``start``: the heuristics when the playout began),
        scaled when read (``_mean``); with ``value='place'`` its place among the seats in
        play by that rise (1 the most, 0 the least, ties shared)."""
        n = world.n
        if world.status == "game_over":
            return world.returns(), None
        seats = [p for p in range(n) if world.active[p]]
        if h is None or len(seats) < 2:
            return [0.5] * n, None
        scores = {}
        judged = self._judged
        for p in seats:
            if judged is not None and judged[0] is world and judged[1] == p:
                # judged as the last step made it (and nothing has moved since): the same
                # value and the same work, without working it out again
                self._check(world)
                world.work_done += max(1, judged[3])
                scores[p] = judged[2] - start.get(p, 0.0)
            else:
                scores[p] = self._judge(world, h, world, p) - start.get(p, 0.0)
        if self.value_mode == "scaled":
            tot = sum(scores.values())
            k = len(seats) - 1
            out = [0.0] * n
            for p in seats:
                r = out[p] = scores[p] - (tot - scores[p]) / k
                if r < self.lo:
                    self.lo = r
                if r > self.hi:
                    self.hi = r
            # a seat out of play since the playout began has lost the match: 0, as a result
            # in [0, 1] (out[p] stays 0), not a heuristic difference
            return out, set(seats)
        out = [0.0] * n
        for p in seats:
            below = sum(1 for q in seats if scores[q] < scores[p] - 1e-9)
            tied = sum(1 for q in seats if q != p and abs(scores[q] - scores[p]) <= 1e-9)
            out[p] = (below + 0.5 * tied) / (len(seats) - 1)
        return out, None
