"""An action's step after its effects, generated as one function: where the turn goes next,
entering the phase, and the check of the triggers.

``State._goto`` and ``State._enter_phase`` handle every case and look everything up in the
game at every step. Here each action's step is written out, with the phase, its actor and
the turn order spliced in as constants, so that a decision runs one generated function
instead of two engine methods; with the action's effects before it, one function for the
whole step (``act_function``). Where the step goes is known before anyone plays (``next``
names a phase or ``end_turn`` outright, the turn's first phase is fixed), the phase's entry
is written in place: its step limits, its actor, its ``enter`` effects (in place or called
as the engine calls them), the triggers, and for a house phase the house's play (house.py).
A ``next`` or first phase worked out at run time is checked as ``_goto`` checks it, then
calls the phase's generated entry (``enter_functions``). The turn's ``end`` and ``start``
effects run where ``_goto`` runs them. It does exactly what those methods do, the same checks
with the same messages; only an action chosen one item at a time (choice.py) keeps the
engine's path for its effects (``ActionDef.act`` stays None). Everything is compiled when
first called (``Namespace.define_later``).

The generated source is made of fixed templates and constant names only (see codegen.py).
"""

from __future__ import annotations

import re
from typing import Any

from . import house
from .codegen import Namespace, frame_only_indexed
from .runtime import NO_FRAME, brief

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
    """``step(S, ok, F)``: what ``State._goto(next)`` then ``State._enter_phase()`` do after
    ``action``'s effects (``ok``: every trigger was false before the step, so the action's
    own ``check_after`` may be used; ``F``: the action's frame, which a ``next`` computed at
    run time reads); True when a trigger ended the round (the engine then finishes it). None
    where the engine's general path is needed."""
    lines = _step_lines(ns, game, action)
    if lines is None:
        return None
    return _Lazy(ns.define_later("_step", ["def _step(S, ok, F):", *lines], action.span),
                 _install(action, "step"))


class _Lazy:
    """A generated function compiled when first called (``Namespace.define_later``), that
    then puts the compiled function in its place (``put``): loading a game (``rulelang
    check``) compiles nothing that may never run. An action's ``act`` runs only where the
    game keeps no record; its ``step`` only on the engine's general path (a recorded game, a
    choice made item by item), the same lines as the end of its ``act``."""

    __slots__ = ("make", "put")

    def __init__(self, make: Any, put: Any) -> None:
        self.make, self.put = make, put

    def __call__(self, *args: Any) -> Any:
        fn = self.make()
        self.put(self, fn)
        return fn(*args)


def _install(action: Any, attr: str) -> Any:
    """``_Lazy.put`` for an action's ``attr``, unless something else was put there since."""
    def put(lazy: _Lazy, fn: Any) -> None:
        if getattr(action, attr) is lazy:
            setattr(action, attr, fn)
    return put


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
    first = next((x for x in steps if re.search(r"\bF\b", x)), None)
    own = None if body is None or _dynamic(action) or not (
        first is None or first.startswith("    F = ")) else _frameless(action, body)
    if own is not None:  # the effects read only the arguments, as locals: no frame
        lines += own[0]
        body = own[1]
    elif body is not None or _dynamic(action):  # the effects or a computed next read it
        frame = ["None"] * action.nslots
        for i, arg in enumerate(action.args):
            frame[arg[3]] = f"args[{i}]"
        lines.append(f"    F = [{', '.join(frame)}]" if frame else f"    F = {ns.k(NO_FRAME)}")
    if body is not None:
        lines += [*body,
                  "    if S.pending_end is not None:",  # an effect ended the round
                  "        return True"]
    return _Lazy(ns.define_later("_act", lines + steps, action.span), _install(action, "act"))


def _frameless(action: Any, body: list[str]) -> tuple[list[str], list[str]] | None:
    """``(lines, body)``: the effects' block with the argument slots it reads as Python
    locals set from ``args`` first, where it reads no other slot and hands the frame to
    nothing; None where it needs the frame."""
    text = "\n".join(body)
    if not frame_only_indexed(text):
        return None
    used = {int(k) for k in re.findall(r"\bF\[(\d+)\]", text)}
    argslot = {arg[3]: i for i, arg in enumerate(action.args)}
    if not used <= set(argslot):
        return None
    for k in used:
        ref = re.compile(r"\bF\[" + str(k) + r"\]")
        body = [ref.sub(f"_v{k}", line) for line in body]
    return [f"    _v{k} = args[{argslot[k]}]" for k in sorted(used)], body


def _dynamic(action: Any) -> bool:
    """Whether the action's ``next`` is computed at run time."""
    return action.next_const is None and action.next is not None


def _hook(ns: Namespace, unit: Any) -> list[str]:
    """A hook's effects (a ``game.Unit``: the turn's start or end, a phase's ``enter``):
    their block written in place, on a frame of their own (the action's is done with), where
    ``statements.stmts`` wrote it as one; else a call. The block locates its errors at its
    statements, as the call's would be."""
    body = getattr(unit.fn, "body", None)
    if body is None:
        return [f"    {ns.k(unit.call)}(S)"]
    return [f"    F = [None] * {unit.nslots}" if unit.nslots else f"    F = {ns.k(NO_FRAME)}",
            *body]


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _step_lines(ns: Namespace, game: Any, action: Any) -> list[str] | None:
    """The body of ``step_function``'s function, or None. Every path through it ends in a
    ``return``."""
    lines = ["    mover = S.actor"]
    act = ns.k(action)
    if _dynamic(action):
        # as _goto: the phase named is checked, located at the next: that computed it
        where = getattr(action.next_tree, "span", action.span)
        msg = f" is not a phase (phases: {', '.join(game.phases)}, or end_turn)"
        end = _end_turn(ns, game, act)
        if end is None:
            return None
        return lines + [
            f"    nx = {ns.k(action.next)}(S, F)",
            "    if nx == 'end_turn':", *_indent(end),
            f"    if not {ns.k(isinstance)}(nx, str) or nx not in {ns.k(game.phases)}:",
            f"        raise RuntimeRulesError('next: ' + {ns.k(brief)}(nx) + {ns.k(msg)}, "
            f"{ns.k(where)})",
            "    S.phase = nx",
            f"    return {ns.k(enter_functions(ns, game))}[nx](S, ok, {act}, mover)"]
    nxt = action.next_const or "end_turn"
    if nxt == "end_turn":
        end = _end_turn(ns, game, act)
        return None if end is None else lines + end
    ph = game.phases.get(nxt)
    if ph is None:
        return None
    return lines + [f"    S.phase = {ns.k(nxt)}", *_enter_lines(ns, game, ph, act)]


def _end_turn(ns: Namespace, game: Any, act: str) -> list[str] | None:
    """``_goto('end_turn')`` then ``_enter_phase()``, for the action named ``act``."""
    lines: list[str] = []
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
    # the turn's start effects, once its first phase is set
    start = [] if game.turn_start is None else \
        ["    S.actor = S.turn", *_hook(ns, game.turn_start), *_ENDED]
    if game.first_phase_fn is not None:  # chosen at run time (turnphase.chooser checks it)
        return lines + [f"    S.phase = {ns.k(game.first_phase_fn.call)}(S)", *start,
                        f"    return {ns.k(enter_functions(ns, game))}[S.phase](S, ok, {act}, "
                        "mover)"]
    ph = game.phases.get(game.first_phase)
    if ph is None:
        return None
    return lines + [f"    S.phase = {ns.k(game.first_phase)}", *start,
                    *_enter_lines(ns, game, ph, act)]


def enter_functions(ns: Namespace, game: Any) -> dict[str, Any]:
    """Phase name -> ``enter(S, ok, A, mover)``: ``State._enter_phase()`` for that phase
    (``S.phase`` already set) after a step of action ``A`` by ``mover``, for the steps that
    learn their next phase at run time. Made once per game, when first needed."""
    made: dict[str, Any] | None = ns.ns.get(_ENTERS)
    if made is None:
        made = ns.ns[_ENTERS] = {}
        for name, ph in game.phases.items():
            made[name] = _Lazy(ns.define_later("_enter", ["def _enter(S, ok, A, mover):",
                                                          *_enter_lines(ns, game, ph, "A")],
                                               ph.span), _put_in(made, name))
    return made


def _put_in(table: dict[str, Any], key: str) -> Any:
    """``_Lazy.put`` for ``table[key]``."""
    def put(lazy: _Lazy, fn: Any) -> None:
        if table.get(key) is lazy:
            table[key] = fn
    return put


# where a game's namespace keeps them (a name no generated source uses)
_ENTERS = "_enter_functions"


def _enter_lines(ns: Namespace, game: Any, ph: Any, act: str | None) -> list[str]:
    """``State._enter_phase()`` for phase ``ph`` after a step of the action named ``act``
    (None: no step, a round's first phase: every trigger is checked), ending in the
    ``return`` of whether the round ended."""
    lines = [line.format(ns.k(ph.span)) for line in _LIMITS]
    actor = "S.turn" if ph.actor is None else f"{ns.k(ph.actor.call)}(S)"
    lines += [
        f"    actor = S.actor = {actor}",
        "    if type(actor) is not int or not 0 <= actor < S.n:",
        "        raise RuntimeRulesError(f\"phase '{S.phase}': the player to act is {actor!r}, \"",
        f"                                'not a seat at this table', {ns.k(ph.span)})",
    ]
    if ph.enter is not None:  # the phase's enter effects may end the round
        lines += [*_hook(ns, ph.enter), *_ENDED]
    if act is None:  # a new deal: check_next is None, every trigger is checked
        lines += ["    S.check_next = None", f"    if {ns.k(game)}.check_triggers(S):",
                  "        return True"]
    else:
        lines += _after_step(ns, game, act)
    lines.append("    S.triggers_clean = True")
    if ph.house:  # played by the rules at once (house.py), which finishes a round it ends
        lines.append(f"    {ns.k(house.play)}(S)")
    lines.append("    return False")
    return lines


def _after_step(ns: Namespace, game: Any, act: str) -> list[str]:
    """The check of the triggers after a step of the action named ``act``."""
    return [
        # as _enter_phase: the action's own check of the triggers only after a clean step
        "    S.check_next = None",
        "    if ok:",
        f"        check = {act}.step_check",
        "        if check is not None:",
        "            if check(S, mover):",
        "                return True",
        f"        elif ({act}.check_after or {ns.k(game)}.check_triggers)(S):",
        "            return True",
        f"    elif {ns.k(game)}.check_triggers(S):",
        "        return True",
        # the legal moves need no resetting: _apply_entry dropped them before the effects ran
    ]
