"""An action's step after its effects, generated as one function: where the turn goes next,
entering the phase, and the check of the triggers.

``State._goto`` and ``State._enter_phase`` handle every case (a ``next`` computed at run time,
turn hooks, phase ``enter`` effects) and look everything up in the game at every step. For an
action whose ``next`` names a phase or ``end_turn`` outright, in a game whose first phase of a
turn is fixed and whose next phase has no ``enter`` effects, the step is a fixed sequence
known before anyone plays (the turn's ``end`` and ``start`` effects called where ``_goto``
calls them): this module writes it out, with the phase, its actor and the turn order spliced
in as constants, so that a decision runs one generated function instead of two engine
methods; with the action's effects before it, one function for the whole step
(``act_function``). It does exactly what those methods do, the same checks with the same
messages; anything else keeps the engine's path (``ActionDef.step`` stays None).

The generated source is made of fixed templates and constant names only (see codegen.py).
"""

from __future__ import annotations

from typing import Any

from .codegen import Namespace
from .runtime import NO_FRAME

# the engine's step limits, as _enter_phase words them, located at the phase entered ({0})
_LIMITS = [
    "    S.steps += 1",
    "    S.round_steps += 1",
    "    if S.round_steps > S.max_round_steps:",
    "        raise RuntimeRulesError(f'the round ran more than {{S.max_round_steps}} steps '",
    "                                f\"without ending (in phase '{{S.phase}}')\", {0})",
    "    if S.steps > S.max_game_steps:",
    "        raise RuntimeRulesError(f'the game ran more than {{S.max_game_steps}} steps '",
    "                                f\"(in phase '{{S.phase}}')\", {0})",
]


# an effect ended the round: the engine finishes it
_ENDED = ["    if S.pending_end is not None:", "        return True"]


def step_function(ns: Namespace, game: Any, action: Any) -> Any:
    """``step(S, ok)``: what ``State._goto(next)`` then ``State._enter_phase()`` do after
    ``action``'s effects (``ok``: every trigger was false before the step, so the action's
    own ``check_after`` may be used); True when a trigger ended the round (the engine then
    finishes it). None where the engine's general path is needed."""
    lines = _step_lines(ns, game, action)
    if lines is None:
        return None
    return ns.define("_step", ["def _step(S, ok):", *lines], action.span)


def act_function(ns: Namespace, game: Any, action: Any) -> Any:
    """``act(S, args, ok)``: the action's whole step as one function: its frame made from
    the arguments, its effects (the block ``statements.stmts`` wrote, with the same error
    handling), then ``step_function``'s step; True when the round ended (by an effect or a
    trigger: the engine then finishes it). None where the engine's path is needed (no
    generated step, effects not written as one block, a choice made one item at a time)."""
    steps = _step_lines(ns, game, action)
    body = getattr(action.do, "body", None)
    if steps is None or (action.do is not None and body is None) \
            or action.pick is not None or action.item_of is not None:
        return None
    lines = ["def _act(S, args, ok):"]
    if body is not None:
        frame = ["None"] * action.nslots
        for i, arg in enumerate(action.args):
            frame[arg[3]] = f"args[{i}]"
        lines += [f"    F = [{', '.join(frame)}]" if frame else f"    F = {ns.k(NO_FRAME)}",
                  *body,
                  "    if S.pending_end is not None:",  # an effect ended the round
                  "        return True"]
    return ns.define("_act", lines + steps, action.span)


def _hook(ns: Namespace, unit: Any) -> list[str]:
    """A turn hook's effects (a ``game.Unit``): their block written in place, on a frame of
    their own (the action's is done with), where ``statements.stmts`` wrote it as one; else a
    call. The block locates its errors at its statements, as the call's would be."""
    body = getattr(unit.fn, "body", None)
    if body is None:
        return [f"    {ns.k(unit.call)}(S)"]
    return [f"    F = [None] * {unit.nslots}" if unit.nslots else f"    F = {ns.k(NO_FRAME)}",
            *body]


def _step_lines(ns: Namespace, game: Any, action: Any) -> list[str] | None:
    """The body of ``step_function``'s function, or None."""
    nxt = action.next_const
    if nxt is None:
        if action.next is not None:
            return None  # next is computed at run time
        nxt = "end_turn"
    lines = ["    mover = S.actor"]
    start: list[str] = []  # the turn's start effects, once its first phase is set
    if nxt == "end_turn":
        if game.first_phase_fn is not None:  # a first phase chosen at run time
            return None
        if game.turn_end is not None:  # as _goto: the turn's end effects may end the round
            lines += [*_hook(ns, game.turn_end), *_ENDED]
        if game.turn_next is not None:
            lines.append(f"    S.turn = {ns.k(game.turn_next.call)}(S)")
        else:
            # next_seat's table lookup, written out (Seats.next_seat)
            lines += ["    t = S.turn", "    r = S.ring",
                      "    if r[0] is S.seated and S.direction == 1 and type(t) is int "
                      "and 0 <= t < S.n:",
                      "        S.turn = r[1][t]", "    else:", "        S.turn = S.fx_next_seat(t)"]
        lines += ["    S.turns += 1", "    S.total_turns += 1"]
        if game.turn_start is not None:
            start = ["    S.actor = S.turn", *_hook(ns, game.turn_start), *_ENDED]
        nxt = game.first_phase
    ph = game.phases.get(nxt)
    if ph is None or ph.enter is not None or ph.house:  # the house plays on: house.py
        return None
    lines.append(f"    S.phase = {ns.k(nxt)}")
    lines += start
    lines += [line.format(ns.k(ph.span)) for line in _LIMITS]
    actor = "S.turn" if ph.actor is None else f"{ns.k(ph.actor.call)}(S)"
    lines += [
        f"    actor = S.actor = {actor}",
        "    if type(actor) is not int or not 0 <= actor < S.n:",
        "        raise RuntimeRulesError(f\"phase '{S.phase}': the player to act is {actor!r}, \"",
        f"                                'not a seat at this table', {ns.k(ph.span)})",
        # as _enter_phase: the action's own check of the triggers only after a clean step
        "    S.check_next = None",
        "    if ok:",
        f"        check = {ns.k(action)}.step_check",
        "        if check is not None:",
        "            if check(S, mover):",
        "                return True",
        f"        elif ({ns.k(action)}.check_after or {ns.k(game)}.check_triggers)(S):",
        "            return True",
        f"    elif {ns.k(game)}.check_triggers(S):",
        "        return True",
        # the legal moves need no resetting: _apply_entry dropped them before the effects ran
        "    S.triggers_clean = True",
        "    return False",
    ]
    return lines
