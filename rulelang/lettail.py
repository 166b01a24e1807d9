"""A function's work after its ``let``s, remembered by the values they bound.

``best(cards): let ms = melds_in(cards); max([...disjoint(ms, k)...], key: ...)``: the
expensive part after the ``let`` reads nothing of the cards but ``ms``, and many hands have
the same melds (most hands a search judges have none or one), so remembering that part by
``ms`` finds it again where the function's own memo, keyed by the hand, almost never does.

``compile_body`` compiles a rules function's body; where it is a chain of ``let``s whose last
body (the tail) reads no parameter of the function, reads nothing of the game (``touch``),
loops two deep (``_loops``: worth remembering) and reads one ``let`` name, the tail becomes
a function of its own, ``NAME@let``, of that name, with no call of its own charged: the
function then calls it with the values bound. ``functions.memoize_pure`` remembers it when
everything it calls is pure, keyed by lists of lists too (``memo.memo``'s ``deep``), the
key's items charged as every memo key is. Errors inside it are the function's own (its span,
its name). The tail is not in the call graph: the function keeps the tail's calls as its own,
so recursion and purity are judged on the function as written.
"""

from __future__ import annotations

from typing import Any

from . import nodes as N
from .codegen import Src
from .functions import TAIL, install
from .listheld import kept_parts
from .listheld import loops as _loops
from .scope import Scope, UserFn


def _split(tree: N.Node, params: tuple[str, ...], functions: Any
           ) -> tuple[list[N.Let], N.Node, tuple[str, ...]] | None:
    """The first ``let``s of a chain, the rest of it (the tail: the longest that reads no
    parameter, nor a name that may be one) and the one name the tail reads of them; None
    where there is no such tail, or its loops do not nest two deep (a tail that costs little
    costs less than looking it up), or it reads several (a key of several values made from
    the same hand is found again about as rarely as the hand: a bundled game's search took
    2.3% more instructions with one, docs/performance.md)."""
    lets: list[N.Let] = []
    body = tree
    while isinstance(body, N.Let):
        lets.append(body)
        body = body.body
        bound = [x.name for x in lets]
        free = set(params) - set(bound)
        names: list[str] = []
        for n in N.walk(body):
            if isinstance(n, N.Name):
                if n.id in free:
                    break
                if n.id in bound and n.id not in names:
                    names.append(n.id)
        else:
            if len(names) == 1 and _loops(body, functions) >= 2:
                return lets, body, tuple(names)
    return None


def compile_body(c: Any, tree: N.Node, sc: Scope, uf: UserFn,
                 functions: dict[str, UserFn]) -> tuple[Any, str]:
    """``c.expr(tree, sc)`` for the body of rules function ``uf``, its tail made a function
    of its own where that is worth it (see the module's docstring)."""
    # parts kept for the rest of a listing by the arguments they read (listheld.py)
    c._kept = kept_parts(tree, uf.params, functions) if "@" not in uf.name else {}
    try:
        return _compile_body(c, tree, sc, uf, functions)
    finally:
        c._kept = {}


def _compile_body(c: Any, tree: N.Node, sc: Scope, uf: UserFn,
                  functions: dict[str, UserFn]) -> tuple[Any, str]:
    cut = _split(tree, uf.params, functions) if "@" not in uf.name else None
    if cut is None or uf.name + TAIL in functions:
        return c.expr(tree, sc)
    lets, body, names = cut
    saved = []
    parts = []
    for x in lets:  # as Compiler.e_Let, each binding its own slot
        v, vt = c.expr(x.value, sc)
        saved.append((x.name, sc.slots.get(x.name), sc.types.get(x.name)))
        parts.append((sc.new_slot(x.name, vt), v))
    tail = UserFn(uf.name + TAIL, names, uf.span, False)
    tsc = Scope(names, fn=tail)
    for p in names:
        tsc.types[p] = sc.types[p]
    at = (len(c.errors), len(c.warnings), len(c.cg.sources))
    touched, c.touch = c.touch, False
    fn, bt = c.expr(body, tsc)
    if c.touch or not isinstance(fn, Src) or len(c.errors) > at[0]:
        # it reads the game (or does not compile): the body inline, as it always was
        del c.errors[at[0]:], c.warnings[at[1]:], c.cg.sources[at[2]:]
        c.touch = touched
        fn, bt = c.expr(body, sc)
    else:
        c.touch = touched
        tail.ret, tail.nslots, tail.pure = bt, tsc.n, True
        tail.order_free = (False,) * len(names)
        install(tail, fn, c.cg, charge=False, where=f" (in '{uf.name}')")
        functions[tail.name] = tail
        uf.calls |= tail.calls  # the call graph as written (recursion, purity)
        fn = c.gen(f"{c.k(tail)}.fn(S, " + ", ".join(f"F[{sc.slots[p]}]" for p in names)
                   + ")")
    for name, slot, typ in reversed(saved):
        if slot is not None:
            sc.slots[name], sc.types[name] = slot, typ or "any"
        else:
            del sc.slots[name]
    for slot, v in reversed(parts):
        fn = c.gen(f"(F.__setitem__({slot}, {{0}}) or {{1}})", v, fn)
    return fn, bt
