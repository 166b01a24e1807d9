"""One move looked ahead in a sampled world, for the ``ismcts`` bot's greedy playout step
(``ismcts.ISMCTSAgent._greedy_step``): the move played on a clone that shares the world's
random generator, so that the look-ahead's draws are the world's (``look``), and the clone of
the move chosen made the iteration's world in place of playing that move again (``adopted``):
every playout the same, draw for draw and unit of work for unit.
"""

from __future__ import annotations

from typing import Any

from .limits import MAX_LOG_MESSAGES


def look(world: Any, i: int) -> tuple[Any, int]:
    """The world after its move ``i``, on a clone sharing its generator (the look-ahead's draws
    are the world's, as they always were), and the work of that step, or -1 if it drew from
    the generator. A draw is seen by marking the clone's generator shared: its first draw
    then copies it (``State.rng``); the copy's draws are made the world's generator's."""
    s = world.clone(share_rng=True)
    r, shared = s._rng, s._rng_shared
    s._rng_shared = True
    before = s.work_done
    try:
        s.apply_index(i)
    finally:
        drew = s._rng is not r
        if drew and not shared:  # as if drawn from the world's generator itself
            r.setstate(s._rng.getstate())
        s._rng, s._rng_shared = r, shared
    world.work_done = s.work_done  # the look-ahead's work is the playout's
    return s, -1 if drew else s.work_done - before


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
