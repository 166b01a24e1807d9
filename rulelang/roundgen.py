"""A round's deal as one generated function: ``round.start``'s effects, ``round.first``, the
turn's first phase, the turn's ``start`` effects and the entry of that phase (its step limits,
its actor, its ``enter`` effects, the check of every trigger, a house phase's play).

``Rounds._start_round`` keeps the round's bookkeeping (the counters at its start, the flow's
counts) and then, for any deal but a scenario's fixed one, calls this instead of running the
units one by one and ``State._enter_phase``: the same effects in the same order, the same
draws from the state's RNG, the same checks with the same messages, a few Python calls fewer
a round. It is written as ``fuse.py`` writes an action's step, from the same pieces.

The generated source is made of fixed templates and constant names only (see codegen.py).
"""

from __future__ import annotations

from typing import Any

from .codegen import Namespace
from .fuse import _ENDED, _enter_lines, _hook, _Lazy, enter_functions
from .runtime import seat_value


def begin_function(ns: Namespace, game: Any) -> Any:
    """``begin(S)``: what ``_start_round`` does once its bookkeeping is done, up to and
    including the first phase's entry; True when the round ended (by an effect or a trigger:
    the engine then finishes it). None where the engine's own path is needed."""
    lines = ["def _begin(S):"]
    if game.round_start is not None:
        lines += _hook(ns, game.round_start)
    u = game.round_first
    if u is None:
        lines.append("    S.turn = S.dealer")
    else:  # as _start_round: a seat, or what seat_value makes of it (or its error)
        lines += [f"    t = {ns.k(u.call)}(S)",
                  f"    S.turn = t if type(t) is int and 0 <= t < S.n else {ns.k(_seat(u))}(S, t)"]
    fixed = game.first_phase_fn is None
    if fixed:
        ph = game.phases.get(game.first_phase)
        if ph is None:
            return None
        lines.append(f"    S.phase = {ns.k(game.first_phase)}")
    else:  # chosen at run time (turnphase.chooser checks it)
        lines.append(f"    S.phase = {ns.k(game.first_phase_fn.call)}(S)")
    lines += _ENDED  # an effect of round.start ended the round
    if game.turn_start is not None:
        lines += ["    S.actor = S.turn", *_hook(ns, game.turn_start), *_ENDED]
    if fixed:
        lines += _enter_lines(ns, game, ph, None)
    else:
        lines.append(f"    return {ns.k(enter_functions(ns, game))}[S.phase](S, False, None, "
                     "None)")
    return _Lazy(ns.define_later("_begin", lines, None), _put(game))


def _seat(u: Any) -> Any:
    """``seat(S, v)``: ``seat_value`` of what ``round.first`` (the unit ``u``) gave."""
    def seat(S: Any, v: Any) -> int:
        return seat_value(S, v, u, "round.first")
    return seat


def _put(game: Any) -> Any:
    """``_Lazy.put`` for ``game.round_begin``."""
    def put(lazy: _Lazy, fn: Any) -> None:
        if game.round_begin is lazy:
            game.round_begin = fn
    return put
