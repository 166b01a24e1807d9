"""The greedy playout step of the ``ismcts`` bot (ismcts.py): the move best for its mover by the
rules file's heuristic, one step ahead in the iteration's sampled world.

A search runs tens of thousands of these steps a decision, each judging up to a few moves on
clones of the world, so the loop is written out here in one function: each move's clone, its
step and its heuristic, with the bookkeeping that makes the playout the same, draw for draw and
unit of work for unit, as if each move were played on a clone by ``State.apply_index`` and the
best then played again on the world (the way it was first written; ``tests/test_ismcts.py``
keeps that reference).
"""

from __future__ import annotations

import math
from typing import Any

from .errors import RulesError
from .limits import MAX_GAME_WORK, MAX_LOG_MESSAGES
from .runtime import LIMIT, WORK

GREEDY_CANDIDATES = 4  # moves a greedy playout step judges at most (see greedy_step)
# moves a greedy step of the others' replies to the seat's move judges at most: every one in
# most games (a reply judged among 4 of 23 missed the best one most of the time, so a move
# that ends the round after the others' last turn looked safe: docs/agents.md)
GREEDY_REPLY = 32


def greedy_step(agent: Any, world: Any, k: int, h: Any) -> None:
    """Play the move best for its mover by the heuristic, one step ahead in this world (which
    is already a sample: nothing in it is hidden from the search), among at most
    ``GREEDY_CANDIDATES`` moves drawn at random when there are more: a playout step then costs
    a few steps, not one per legal move (13 in a trick game's first trick). The others'
    replies to the seat's move of the tree (until the seat moves again) judge up to
    ``GREEDY_REPLY``: the move searched is worth what it is against their best answer.
    (``agent``: the ``ISMCTSAgent``, whose generator, budget and iteration's world it uses.)

    Each move is judged on a clone of the world sharing its generator, and the clone of the
    move chosen becomes the iteration's world (``agent._world``, ``adopted``) rather than the
    move being played again on it: the same state, one step fewer. A draw from the generator
    is seen by marking each clone's generator shared (its first draw then copies it,
    ``State.rng``), and the copy's draws are made the world's, as if drawn from the world's
    generator itself; where the chosen move's step drew (a reshuffle) the move is played on
    the world again, after the look-ahead's draws, as it always was."""
    actor = world.actor
    rng = agent.rng
    most = (GREEDY_REPLY if agent._follow or (agent._replying and actor != agent._seat)
            else GREEDY_CANDIDATES)
    if k > most:
        picks: Any = sorted({int(rng.random() * k) for _ in range(most)})
    else:
        picks = range(k)
    best: list[int] = []
    kept: list[tuple[Any, int, int, float]] = []  # each best move's clone, step's and
    # judgement's work, and its value
    best_v = -math.inf
    left, allowance = agent._left, world.max_work
    if world._rng is None:
        world._rng = world.rng  # made now, so that every clone shares the very object
    r, shared = world._rng, world._rng_shared
    entries = world._entries if world._unique else world._distinct()
    clone = world.clone
    for i in picks:
        s = clone(True)
        s._rng_shared = True
        before = s.work_done
        try:
            s._apply_entry(*entries[i])
        finally:
            if s._rng is not r:
                step = -1
                if not shared:  # as if drawn from the world's generator itself
                    r.setstate(s._rng.getstate())
            else:
                step = 0
            s._rng, s._rng_shared = r, shared
        done = world.work_done = s.work_done  # the look-ahead's work is the playout's
        if step == 0:
            step = done - before
        # agent._judge(world, h, s, actor), written out: it runs for every move judged
        if done >= left:
            agent._check(world)
        WORK[0] = LIMIT[0] = allowance
        v = h(s, actor)
        used = allowance - WORK[0]
        world.work_done = done + (used if used > 1 else 1)
        if type(v) is not float:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise RulesError(f"the heuristic computed {v!r:.60}, not a number")
            v = float(v)
        if v > best_v + 1e-9:
            best, kept, best_v = [i], [(s, step, used, v)], v
        elif abs(v - best_v) <= 1e-9:
            best.append(i)
            kept.append((s, step, used, v))
    j = int(rng.random() * len(best))
    s, step, used, v = kept[j]
    if step < 0 or world.work_done + step > MAX_GAME_WORK:  # played as it always was
        world.apply_index(best[j])
    else:
        agent._world = adopted(world, s, step)
        agent._judged = (s, actor, v, used)


def adopted(world: Any, s: Any, step: int) -> Any:
    """``s``, a clone of ``world`` on which one move was played, made the state ``world``
    would be had that move been played on it now (``step``: its work): the messages and
    round results, which a clone starts without, go on from the world's. (``world`` is
    dropped; a state whose ``__dict__`` was swapped instead ran its attribute reads slower.)"""
    msgs = world.messages
    for m in s.messages:  # as log_message keeps them
        msgs.append(m)
        if len(msgs) > 2 * MAX_LOG_MESSAGES:
            del msgs[:-MAX_LOG_MESSAGES]
    s.messages = msgs
    world.round_results.extend(s.round_results)
    s.round_results = world.round_results
    s.work_done = world.work_done + step
    return s
