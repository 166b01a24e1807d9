"""Calls inside a comprehension that do not depend on its variables, computed once per pass.

``[c for c in hand[me] if c in fitting(by_use(hand[me], w), set_rank(g, w), w)]`` would call
``fitting`` (and ``by_use``, ``set_rank``) once per card, though their arguments are the same
for every card: nothing an expression does can change the game, so a call whose arguments name
none of the comprehension's variables gives the same value each time. The compiler gives each
such call a frame slot, set to ``UNSET`` when the comprehension starts and filled the first time
the call is reached (lazily: a call that was only reached under a condition is still only made
when the condition holds, so that an error it would raise is raised where it was before).
Results, their order and errors are unchanged; only the work counted for the step is less.

The same holds for readings of items and attributes (``l[0].order``) and ``size()`` where their
code makes a call (``worth_a_slot``), and, one level up, for the calls in an action's later
argument that name no argument before it: the listing works that argument out once per option
of the ones before (``listing_invariant_calls``), so they are made once per listing.
"""

from __future__ import annotations

import re
from typing import Any

from . import nodes as N
from .builtins import BUILTINS
from .codegen import Src
from .runtime import WORK, out_of_work
from .scope import ALIASED

# calls as cheap as reading their slot: not worth holding for a listing
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


def clause_invariant_calls(comp: N.Comprehension, j: int) -> list[N.Call]:
    """The outermost calls in what the comprehension works out once per item of a clause
    after its clause ``j`` (their conditions, the iterables after clause ``j + 1``'s, the
    element) that name none of the names bound after clause ``j``: the later clauses'
    variables and the names bound inside. They have the same value for every item of the
    later clauses: ``f(a)`` in ``[[a, b] for a in xs for b in ys if f(a) <= f(b)]`` is
    made once per ``a``. None where a name of clause ``j`` or before is bound again inside
    (a conservative scope)."""
    clauses = comp.clauses
    stack: list[N.Node] = [comp.elt]
    for i in range(j + 1, len(clauses)):
        _var, it, cond = clauses[i]
        if i > j + 1:
            stack.append(it)
        if cond is not None:
            stack.append(cond)
    bound = {var for var, _it, _cond in clauses[j + 1:]}
    for part in stack:
        bound |= _bound(part)
    if any(var in bound for var, _it, _cond in clauses[:j + 1]):
        return []
    return _outermost(stack, bound)


def body_invariant_calls(body: N.Node, params: tuple[str, ...] | list[str]) -> list[N.Call]:
    """The outermost calls in the body of a rules function being inlined into a comprehension
    that name none of its parameters nor the names bound inside it: they read only the game,
    which no expression changes, so they too are computed once per pass of the comprehension
    (``playable(c)`` reading ``top(discard)`` for each card of a hand)."""
    return _outermost([body], _bound(body) | set(params))


def listing_invariant_calls(tree: N.Node, earlier: list[str]) -> list[N.Call]:
    """The outermost calls in a later argument's options (``args:``) that name none of the
    arguments before it nor the names bound inside it: the listing works the options out once
    per option of the arguments before, and these give the same value each time
    (``by_use(hand[me], w)`` in the cards added to a group, for each group on the table)."""
    out: list[N.Call] = []
    _invariant_in(tree, frozenset(earlier), out)
    return out


def _invariant_in(n: N.Node, bound: frozenset[str], out: list[N.Call]) -> None:
    """The outermost calls under ``n`` whose free names (``_free``) are none of ``bound``:
    the earlier arguments and the names bound around the call inside the tree."""
    if _hoistable(n) and not (_free(n) & bound):
        out.append(n)
    elif isinstance(n, N.Comprehension):
        inner = bound
        for var, it, cond in n.clauses:
            _invariant_in(it, inner, out)
            inner = inner | {var}
            if cond is not None:
                _invariant_in(cond, inner, out)
        _invariant_in(n.elt, inner, out)
    elif isinstance(n, N.Let):
        _invariant_in(n.value, bound, out)
        _invariant_in(n.body, bound | {n.name}, out)
    elif isinstance(n, N.Lambda):
        _invariant_in(n.body, bound | {n.param}, out)
    else:
        for ch in N.children(n):
            _invariant_in(ch, bound, out)


def _free(n: N.Node) -> set[str]:
    """The names ``n`` reads from around it (not those it binds itself)."""
    if isinstance(n, N.Name):
        return {n.id}
    if isinstance(n, N.Comprehension):
        out: set[str] = set()
        inner: set[str] = set()
        for var, it, cond in n.clauses:
            out |= _free(it) - inner
            inner.add(var)
            if cond is not None:
                out |= _free(cond) - inner
        return out | (_free(n.elt) - inner)
    if isinstance(n, N.Let):
        return _free(n.value) | (_free(n.body) - {n.name})
    if isinstance(n, N.Lambda):
        return _free(n.body) - {n.param}
    out = set()
    for ch in N.children(n):
        out |= _free(ch)
    return out


def _hoistable(n: N.Node) -> bool:
    """A call (not one that draws at random), or a reading of an item or an attribute
    (``l[0].order``): worth a slot unless it compiles to no call at all (``hoisted_src``)."""
    return (isinstance(n, N.Call) and n.func != "super" and n.func not in DRAWS) or \
        isinstance(n, (N.Attr, N.Index))


# Python calls that cost no more than reading a slot (``len(F[3])``, ``type(x)``)
_CHEAP_CALL = re.compile(r"\b(?:len|type)\(")
_ANY_CALL = re.compile(r"[\w\])]\(")


def worth_a_slot(src: Any) -> bool:
    """Whether compiled code is worth computing once per pass: it makes some call (a table
    lookup, a slot, a constant or ``len`` of a slot are read as fast as the slot would be)."""
    return not isinstance(src, Src) or _ANY_CALL.search(_CHEAP_CALL.sub("", src.src)) is not None


def _outermost(stack: list[N.Node], bound: set[str]) -> list[N.Call]:
    out: list[N.Call] = []
    while stack:
        n = stack.pop()
        if _hoistable(n) and not any(isinstance(x, N.Name) and x.id in bound
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
    c._hoists_used.difference_update(slot for _k, slot in found)  # slots are reused
    c._hoisted.update(found)
    c._comp_hoists[-1].extend(found)
    return [k for k, _slot in found]


def hoist_listing(c: Any, tree: N.Node, earlier: list[str], sc: Any) -> list[int]:
    """Before a later argument's options are compiled (buildphase.py): give its calls that
    name none of the arguments before it (``listing_invariant_calls``) slots of the action's
    frame, made the first time they are reached in one listing, and those that vary by one
    argument (``listing_keyed_calls``) a slot for their dict of values. Such a slot is unset
    while None (``c._listing_slots``), as every frame the engine makes for an action starts
    as None: a result that is None is simply made again. The keys to drop once it is
    compiled (``unhoist``)."""
    found = [(id(n), sc.new_slot(f"@listed{id(n)}"))
             for n in listing_invariant_calls(tree, earlier)]
    c._hoisted.update(found)
    c._listing_slots.update(slot for _k, slot in found)
    kept = {id(n): (sc.new_slot(f"@keyed{id(n)}"), i)
            for n, i in listing_keyed_calls(tree, earlier) if id(n) not in c._hoisted}
    c._keyed.update(kept)
    return [k for k, _slot in found] + list(kept)


def unhoist(c: Any, keys: list[int]) -> None:
    """Forget the slots ``hoist_inlined`` (or ``hoist_listing``) gave: the function's tree is
    shared, and compiled elsewhere it is not in that comprehension (or listing)."""
    for key in keys:
        c._hoisted.pop(key, None)
        c._keyed.pop(key, None)


# ---- a later argument's calls that vary by one value: once per value in a listing ---------
# ``take: combinations(pile, size(give))`` is worked out for each ``give`` (seven), but its
# value depends on ``give`` only through ``size(give)`` (three values): a call all of whose
# arguments but one name nothing that varies in the listing is kept in a dict per listing,
# keyed by that argument's value where it is a number or a text (exactly: ``1.0`` and
# ``True`` are other keys than ``1``), and charged again when reused (as ``Held``).


def listing_keyed_calls(tree: N.Node, earlier: list[str]) -> list[tuple[N.Call, int]]:
    """The outermost calls (with their varying argument's index) in a later argument's
    options with exactly one positional argument that names an argument before it or a name
    bound inside the tree, no named argument, and that draw nothing. Not inside a lambda
    (which may be compiled with a frame of its own)."""
    out: list[tuple[N.Call, int]] = []

    def walk(n: N.Node, bound: frozenset[str]) -> None:
        if isinstance(n, N.Call) and not n.kwargs and n.func != "super" \
                and n.func not in DRAWS:
            vary = [i for i, a in enumerate(n.args) if _free(a) & bound]
            if len(vary) == 1:
                out.append((n, vary[0]))
                return
        if isinstance(n, N.Lambda):
            return
        if isinstance(n, N.Comprehension):
            inner = bound
            for var, it, cond in n.clauses:
                walk(it, inner)
                inner = inner | {var}
                if cond is not None:
                    walk(cond, inner)
            walk(n.elt, inner)
        elif isinstance(n, N.Let):
            walk(n.value, bound)
            walk(n.body, bound | {n.name})
        else:
            for ch in N.children(n):
                walk(ch, bound)

    walk(tree, frozenset(earlier))
    return out


def keyed(F: list, m: int, i: int, fn: Any, *args: Any) -> Any:
    """``fn(*args)``, kept in the listing's dict in slot ``m`` of the action's frame (None
    when the listing starts) by the value of argument ``i``; reused, its work charged again,
    so that the step's work is what making it again would be."""
    key = args[i]
    if type(key) is not int and type(key) is not str:
        return fn(*args)
    memo = F[m]
    if memo is None:
        memo = F[m] = {}
    h = memo.get(key)
    if h is not None:
        WORK[0] -= h.cost
        if WORK[0] < 0:
            out_of_work()
        return h.v
    w0 = WORK[0]
    v = fn(*args)
    memo[key] = Held(v, w0 - WORK[0])
    return v


# ---- a phase's listing: calls of an action's when that no argument changes ----------------
# The listing tries an action's ``when`` once per option (``can_play(me, c)`` for each card
# of the hand), and a call inside it that names no argument, directly or through the
# parameters of the functions inlined into it (``any(hand[p], x -> x.suit == led)`` in
# ``can_follow(p, c)``, p being ``me``), has the same value each time. It is made the first
# time it is reached in the listing and kept in a frame slot as (work left before, value, work
# left after), a tuple made with no call; each later time it is reached the work it took is
# charged again (``held_again``), so that the step's work is what making it again would be
# (only the time differs).


class Held:
    """A call's value and the work it took, kept by a memo of a pass (``keyed``)."""

    __slots__ = ("v", "cost")

    def __init__(self, v: Any, cost: int) -> None:
        self.v = v
        self.cost = cost


def held_again(t: tuple) -> Any:
    """A call kept as (work left before it, its value, work left after) reached again: its
    work charged as making it again would (``SharedCalls``, a listing's kept calls)."""
    WORK[0] -= t[0] - t[2]
    if WORK[0] < 0:
        out_of_work()
    return t[1]


# a loop, or work charged, in generated source
_LOOPS = re.compile(r"\b(?:WORK|for|lambda)\b")


def plain_src(src: str) -> bool:
    """Whether generated source only reads the game (``(S.turns > 0) or S.g[2]``, a rules
    function inlined): no call but ``len``/``type``, no loop, no work charged. Read again, it
    costs no work and raises nothing it would not raise the first time, and less time than
    keeping it would (a kept tuple)."""
    return _ANY_CALL.search(_CHEAP_CALL.sub("", src)) is None and _LOOPS.search(src) is None


def when_invariant_calls(tree: N.Node, variant: set[str]
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
                    and not _free(n) & v:
                found.append(n)
                return
            scopes[id(n)] = v
        if isinstance(n, N.Let):
            walk(n.value, v)
            inner = v | {n.name} if _free(n.value) & v else v - {n.name}
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
    return {p for p, a in zip(params, call.args) if _free(a) & where} | \
        set(params[len(call.args):])


# ---- a phase's listing: the same rules-function call in several actions' whens ------------
# ``when: can_raise(me)`` and ``when: can_call(me)`` of two actions both work out ``due(me)``
# (inlined into them): a listing changes nothing, so a call of a rules function whose
# arguments read only what no listing changes (``me``, a constant: ``scope.ALIASED``) has one
# value in it. Such a call made by the whens of two actions without arguments is kept in the
# phase's list (``SharedCalls.store``, emptied as each listing starts) as (work left before,
# value, work left after), its work charged again where it is reused (``held_again``).


class SharedCalls:
    """The rules-function calls the whens of one phase make (see above): counted while the
    whens are compiled (``wrap`` empty), then those made twice or more (``wrap``) compiled
    again to be kept in ``store``."""

    def __init__(self) -> None:
        self.seen: dict[tuple, int] = {}
        self.wrap: set[tuple] = set()
        self.index: dict[tuple, int] = {}
        self.store: list = []

    def key(self, name: str, argfs: list[Any], src: Any) -> tuple | None:
        """The call's key: its function and its arguments' source; None where an argument
        may differ from action to action, or where reading it again costs less than keeping
        it (``plain_src``)."""
        if not isinstance(src, Src) or plain_src(src.src):
            return None
        args = [f.src if isinstance(f, Src) else "" for f in argfs]
        if not all(ALIASED.fullmatch(a) for a in args):
            return None
        return (name, *args)

    def repeated(self) -> None:
        """Keep the calls seen twice or more (the whens compiled once, counting)."""
        self.wrap = {k for k, n in self.seen.items() if n > 1}
