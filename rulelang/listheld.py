"""Parts of a rules function's body kept for the rest of a listing, by the arguments they read.

A phase's listing changes nothing, and the same function is often called several times in one
with some of its arguments the very same values: ``fitting(h, r, w)`` once per group on the
table with the same hand ``h``, whose ``group_by(h, ...)`` does not read ``r``. So the calls
and comprehensions of a function's body that loop (``loops``) and read none of the body's own
variables (``let``, loop and lambda names) are compiled to keep their value while a listing
runs (the generated listing of a game with such parts gives each listing a number of its own in
``runtime.LISTING``: ``flowgen.legal_function``), with the parameters they read: reached again
in the same listing with each of those arguments the same object (``is``: values made anew are
never found, nothing is compared item by item), the kept value is used and the work it cost
charged again (``hoist.held_again``), so that a step's accounting is the same as if it had been
worked out again. Outside a listing (a step's effects, a bot's judgement) nothing is kept: the
objects an argument names (a zone's list) may change there. Kept are only the parts that read
some of the parameters, not all: a part that reads them all is new whenever the call is (a
whole call made again with the same arguments is its memo's to find: keeping whole bodies too
found nothing in the bundled games that their memos did not, and cost every call).
"""

from __future__ import annotations

from typing import Any

from . import nodes as N
from .hoist import held_again
from .runtime import LISTING


def kept_parts(tree: N.Node, params: tuple[str, ...], functions: Any
               ) -> dict[int, tuple[str, ...]]:
    """The nodes of a function's body ``tree`` kept for a listing (see the module's docstring):
    id -> the parameters each reads, in order. Outermost only."""
    out: dict[int, tuple[str, ...]] = {}
    ps = set(params)

    def free(n: N.Node, bound: frozenset[str]) -> set[str] | None:
        """The parameters ``n`` reads; None where it reads a name bound in the body."""
        got: set[str] = set()

        def go(x: N.Node, inner: frozenset[str]) -> bool:
            if isinstance(x, N.Name):
                if x.id in inner:
                    return True
                if x.id in bound:
                    return False
                if x.id in ps:
                    got.add(x.id)
                return True
            return all(go(k, inner | b) for k, b in _scopes(x))
        return got if go(n, frozenset()) else None

    def visit(n: N.Node, bound: frozenset[str], in_call: bool) -> None:
        # (not a call's argument: the call may be compiled from its argument's shape, as
        # count(combinations(...), ...) is by subsets.py)
        if isinstance(n, (N.Call, N.Comprehension)) and not in_call \
                and loops(n, functions) >= 1:
            reads = free(n, bound)
            if reads is not None and len(reads) < len(ps):
                out[id(n)] = tuple(p for p in params if p in reads)
                return
        for k, b in _scopes(n):
            visit(k, bound | b, isinstance(n, N.Call))

    visit(tree, frozenset(), False)
    return out


# built-ins whose work grows with the choices they make from their list (a loop of their own)
CHOOSERS = frozenset({"combinations", "disjoint", "sets", "runs"})


def loops(n: N.Node, functions: Any) -> int:
    """How deep the loops in ``n`` nest: a comprehension's clauses, a lambda, a call of a rules
    function or of a built-in that chooses among its list's items each count one."""
    here = 0
    if isinstance(n, N.Comprehension):
        here = len(n.clauses)
    elif isinstance(n, N.Lambda):
        here = 1
    elif isinstance(n, N.Call) and (n.func in functions or n.func in CHOOSERS):
        here = 1
    return here + max((loops(k, functions) for k in N.children(n)), default=0)


def _scopes(n: N.Node) -> list[tuple[N.Node, frozenset[str]]]:
    """``n``'s children, each with the names ``n`` binds for it."""
    if isinstance(n, N.Let):
        return [(n.value, frozenset()), (n.body, frozenset({n.name}))]
    if isinstance(n, N.Lambda):
        return [(n.body, frozenset({n.param}))]
    if isinstance(n, N.Comprehension):
        out: list[tuple[N.Node, frozenset[str]]] = []
        names: frozenset[str] = frozenset()
        for var, it, cond in n.clauses:
            out.append((it, names))
            names = names | {var}
            if cond is not None:
                out.append((cond, names))
        out.append((n.elt, names))
        return out
    return [(k, frozenset()) for k in N.children(n)]


def keep(c: Any, n: N.Node, sc: Any, meth: Any, reads: tuple[str, ...]) -> tuple[Any, str]:
    """Node ``n`` compiled (``meth``) to be kept for the listing with the parameters it reads
    (``reads``, each in its frame slot)."""
    f, t = meth(n, sc)
    if any(p not in sc.slots for p in reads):
        return f, t
    # [listing, (work left before, value, work left after), hits, kept, the listing until
    # which nothing is kept, arguments...]
    box = c.k([0, None, 0, 0, 0, *[None] * len(reads)])
    lst = c.k(LISTING)
    args = [f"F[{sc.slots[p]}]" for p in reads]
    same = "".join(f" and {box}[{i + 5}] is {a}" for i, a in enumerate(args))
    return c.gen(f"({c.k(_again)}({box}) if {box}[0] == {lst}[0] > 0{same} else "
                 f"{{0}} if {lst}[0] <= {box}[4] else {c.k(_store)}({box}, "
                 "(WORK[0], {0}, WORK[0])" + "".join(", " + a for a in args) + "))", f, f), t


def _again(box: list) -> Any:
    """The kept value, its work charged again as working it out again would."""
    box[2] += 1
    return held_again(box[1])


def _store(box: list, t: tuple, *args: Any) -> Any:
    """Keep ``t`` (work left before, value, work left after) and the arguments it read for the
    listing running; its value. A part found again fewer than once for every eight times it
    was kept, over ``_PROBE`` of them, is not kept for the next ``_PAUSE`` listings (a part
    whose arguments are new at every call only costs the keeping; the values and work are
    the same either way)."""
    box[0] = LISTING[0]
    box[1] = t
    box[5:] = args
    box[3] += 1
    if box[3] >= _PROBE:
        if box[2] * 8 < box[3]:
            box[4] = LISTING[0] + _PAUSE
        box[2] = box[3] = 0
    return t[1]


_PROBE = 256  # parts kept before their hits are counted (see _store)
_PAUSE = 4096  # listings in which a part found too rarely is not kept
