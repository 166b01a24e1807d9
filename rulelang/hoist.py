"""Calls inside a comprehension that do not depend on its variables, computed once per pass.

``[c for c in hand[me] if c in fitting(by_use(hand[me], w), set_rank(g, w), w)]`` would call
``fitting`` (and ``by_use``, ``set_rank``) once per card, though their arguments are the same
for every card: nothing an expression does can change the game, so a call whose arguments name
none of the comprehension's variables gives the same value each time. The compiler gives each
such call a frame slot, set to ``UNSET`` when the comprehension starts and filled the first time
the call is reached (lazily: a call that was only reached under a condition is still only made
when the condition holds, so that an error it would raise is raised where it was before).
Results, their order and errors are unchanged; only the work counted for the step is less.
"""

from __future__ import annotations

from typing import Any

from . import nodes as N
from .builtins import BUILTINS
from .runtime import WORK, out_of_work

# calls as cheap as reading their slot: not worth one
CHEAP_CALLS = frozenset({"size"})
# calls that draw at random (cut(), in match.first_dealer alone): each call is a new draw
DRAWS = frozenset(b.name for b in BUILTINS.values() if b.setup)


class _Unset:
    """The value of a hoisted call's slot before the call is made."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset()


def _bound(comp: N.Node) -> set[str]:
    """Every name bound anywhere inside the comprehension: its variables and those of the
    comprehensions, ``let``s and lambdas inside it (a conservative scope: a call naming any
    of them stays where it is)."""
    out: set[str] = set()
    for n in N.walk(comp):
        if isinstance(n, N.Comprehension):
            out.update(var for var, _it, _cond in n.clauses)
        elif isinstance(n, N.Let):
            out.add(n.name)
        elif isinstance(n, N.Lambda):
            out.add(n.param)
    return out


def invariant_calls(comp: N.Comprehension) -> list[N.Call]:
    """The outermost calls in the comprehension's conditions, later iterables and element
    that name none of the names bound inside it (the first iterable runs once anyway)."""
    stack: list[N.Node] = [comp.elt]
    for i, (_var, it, cond) in enumerate(comp.clauses):
        if i > 0:
            stack.append(it)
        if cond is not None:
            stack.append(cond)
    return _outermost(stack, _bound(comp))


def body_invariant_calls(body: N.Node, params: tuple[str, ...] | list[str]) -> list[N.Call]:
    """The outermost calls in the body of a rules function being inlined into a comprehension
    that name none of its parameters nor the names bound inside it: they read only the game,
    which no expression changes, so they too are computed once per pass of the comprehension
    (``playable(c)`` reading ``top(discard)`` for each card of a hand)."""
    return _outermost([body], _bound(body) | set(params))


def _outermost(stack: list[N.Node], bound: set[str]) -> list[N.Call]:
    out: list[N.Call] = []
    while stack:
        n = stack.pop()
        if isinstance(n, N.Call) and n.func not in CHEAP_CALLS and n.func != "super" and \
                n.func not in DRAWS and not any(isinstance(x, N.Name) and x.id in bound
                                                for x in N.walk(n)):
            out.append(n)
            continue
        stack.extend(N.children(n))
    return out


def hoist_inlined(c: Any, uf: Any, body: Any) -> list[int]:
    """Before the body of rules function ``uf`` is inlined into a comprehension (``c``: the
    compiler, ``body``: the inlined body's scope): give its calls that read only the game
    (``body_invariant_calls``) slots of the comprehension, reset with its own. The keys to
    drop once the body is compiled (``unhoist``); none outside a comprehension."""
    if not c._comp_hoists:
        return []
    found = [(id(n), body.new_slot(f"@hoisted{id(n)}"))
             for n in body_invariant_calls(uf.tree, uf.params)]
    c._hoisted.update(found)
    c._comp_hoists[-1].extend(found)
    return [k for k, _slot in found]


def unhoist(c: Any, keys: list[int]) -> None:
    """Forget the slots ``hoist_inlined`` gave: the function's tree is shared, and compiled
    elsewhere it is not in that comprehension."""
    for key in keys:
        c._hoisted.pop(key, None)


# ---- a phase's listing: calls of an action's when that no argument changes ----------------
# The listing tries an action's ``when`` once per option (``can_play(me, c)`` for each card
# of the hand), and a call inside it that names no argument, directly or through the
# parameters of the functions inlined into it (``any(hand[p], x -> x.suit == led)`` in
# ``can_follow(p, c)``, p being ``me``), has the same value each time. It is made the first
# time it is reached in the listing and kept in a frame slot as ``Held``; each later time it
# is reached the work it took is charged again, so that the step's work is what making it
# again would be (only the time differs).


class Held:
    """A call's value and the work it took, kept for the rest of a listing."""

    __slots__ = ("v", "cost")

    def __init__(self, v: Any, cost: int) -> None:
        self.v = v
        self.cost = cost


def hold(w0: int, v: Any) -> Held:
    """``v`` just made by a call that began with ``w0`` work left."""
    return Held(v, w0 - WORK[0])


def held(h: Held) -> Any:
    """A kept call reached again: its work charged as making it again would."""
    WORK[0] -= h.cost
    if WORK[0] < 0:
        out_of_work()
    return h.v


def free_names(n: N.Node) -> set[str]:
    """The names ``n`` reads that it does not bind itself (lambdas, comprehensions, lets)."""
    if isinstance(n, N.Name):
        return {n.id}
    if isinstance(n, N.Lambda):
        return free_names(n.body) - {n.param}
    if isinstance(n, N.Let):
        return free_names(n.value) | (free_names(n.body) - {n.name})
    if isinstance(n, N.Comprehension):
        out: set[str] = set()
        bound: set[str] = set()
        for var, it, cond in n.clauses:
            out |= free_names(it) - bound
            bound.add(var)
            if cond is not None:
                out |= free_names(cond) - bound
        return out | (free_names(n.elt) - bound)
    out = set()
    for k in N.children(n):
        out |= free_names(k)
    return out


def listing_invariant_calls(tree: N.Node, variant: set[str]
                            ) -> tuple[list[N.Call], dict[int, frozenset[str]]]:
    """The outermost calls in ``tree`` whose value no name in ``variant`` (the action's
    arguments, or an inlined function's parameters given them) can change, a ``let`` of such
    a value counting as variant too; and for every other call of a rules function, the
    variant names where it stands (by node id), so that its parameters can be told apart when
    its body is inlined (``variant_params``)."""
    found: list[N.Call] = []
    scopes: dict[int, frozenset[str]] = {}

    def walk(n: N.Node, v: frozenset[str]) -> None:
        if isinstance(n, N.Call):
            if n.func not in CHEAP_CALLS and n.func != "super" and n.func not in DRAWS \
                    and not free_names(n) & v:
                found.append(n)
                return
            scopes[id(n)] = v
        if isinstance(n, N.Let):
            walk(n.value, v)
            inner = v | {n.name} if free_names(n.value) & v else v - {n.name}
            walk(n.body, inner)
            return
        if isinstance(n, N.Lambda):
            walk(n.body, v | {n.param})
            return
        if isinstance(n, N.Comprehension):
            inner = v | {var for var, _it, _c in n.clauses}
            for k in N.children(n):
                walk(k, inner)
            return
        for k in N.children(n):
            walk(k, v)

    walk(tree, frozenset(variant))
    return found, scopes


def variant_params(call: N.Call, params: tuple[str, ...], where: frozenset[str]) -> set[str]:
    """The parameters of an inlined function whose argument at ``call`` names a variant name
    (``where``: those where the call stands)."""
    return {p for p, a in zip(params, call.args) if free_names(a) & where} | \
        set(params[len(call.args):])
