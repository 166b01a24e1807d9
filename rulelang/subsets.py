"""Counting the subsets of a hand whose values add up to something, or the pairs whose values
compare, without making them: ``count(combinations(cs, k), x -> sum(v[c.rank] for c in x) ==
15)``, ``count(combinations(cs, 2), x -> x[0].rank == x[1].rank)``.

Written as the built-ins would run it, such a count makes every subset as a list, and for
each one a comprehension over its cards and a sum: a Python frame and a call per subset. Here
the cards' values (``v[c.rank]``, an expression of the card alone that calls nothing) are read
once per card of the hand, and the subsets are made of those values and summed by
``itertools`` and ``sum``; each sum compared as the rules text compares it (``==``, ``<``...).
The same subsets are summed in the same order (each sum adds the same values in the same
order), so the count is the same; the work charged is what the subsets, the loop over them and
the loop over each subset's cards charge, in one go. Pairs alike: each card's value once, the
pairs of values compared by ``itertools.starmap``. Anything but a plain hand (a list of lists,
a size that is not a whole number from 1 to the hand's size, more than 32 cards; for pairs,
values whose comparison would charge) runs the comprehension as written.
"""

from __future__ import annotations

import itertools
import math
import operator
import re
from typing import Any

from . import nodes as N
from .builtins import _FLAT_TEXT, BUILTINS, SHORT_TEXT, ch, items_of
from .limits import MAX_COLLECTION
from .operators import FLAT_TYPES, never_equal
from .runtime import WORK, out_of_work

_OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}
_PLAIN = 32  # cards in a hand the one-go charge is for (as ``builtins._combinations``)
_COMB = [[math.comb(n, k) for k in range(n + 1)] for n in range(_PLAIN + 1)]


def plain_subsets(xs: Any, k: Any) -> bool:
    """Whether ``combinations(xs, k)`` are ``k``-card subsets of a hand (a list holding no
    lists, k from 1 to its size): then what making them, looping over them and over each
    one's cards charges is charged here (as ``builtins._combinations``, ``items_of`` and the
    comprehension's loop would, in that order), and True."""
    if type(k) is int and 0 < k and _plain_hand(xs, k):
        total = _COMB[len(xs)][k]
        if total <= MAX_COLLECTION:
            WORK[0] -= len(xs) + total * (2 * k + 1)
            if WORK[0] < 0:
                out_of_work()
            return True
    return False


def count_sums(values: list, k: int, op: Any, r: Any) -> int:
    """How many ``k``-subsets of ``values`` (taken in order, as ``combinations`` takes them)
    have a sum that compares with ``r`` by ``op`` as True."""
    return sum(map(op, map(sum, itertools.combinations(values, k)), itertools.repeat(r)))


def plain_pairs(xs: Any) -> bool:
    """Whether ``combinations(xs, 2)`` are pairs of a hand of 2 to 32 cards (no lists)."""
    return _plain_hand(xs, 2)


def _plain_hand(xs: Any, least: int) -> bool:
    """A list of ``least`` to 32 items, none of them a list."""
    return type(xs) is list and least <= len(xs) <= _PLAIN and list not in map(type, xs)


def count_pairs(op: Any, values: list | None, as_written: Any) -> Any:
    """How many pairs of ``values`` (in order, as ``combinations`` takes them) compare by
    ``op`` as True, with what making the pairs and looping over them charges; the count
    ``as_written()`` where ``values`` is None (no plain hand) or holds a value whose
    comparison would charge (a list, a long text: see ``builtins.ch``)."""
    if values is None or not _FLAT_TEXT.issuperset(map(type, values)) \
            or any(type(v) is str and len(v) > SHORT_TEXT for v in values):
        return as_written()
    total = _COMB[len(values)][2]
    WORK[0] -= len(values) + 3 * total
    if WORK[0] < 0:
        out_of_work()
    return sum(itertools.starmap(op, itertools.combinations(values, 2)))


def _sum_of_items(node: N.Node, var: str, sum_hidden: bool) -> N.Comprehension | None:
    """``node`` as ``sum(E for c in var)`` (its comprehension), or None."""
    if (isinstance(node, N.Call) and node.func == "sum" and not sum_hidden and not node.kwargs
            and len(node.args) == 1 and isinstance(node.args[0], N.Comprehension)):
        comp = node.args[0]
        if len(comp.clauses) == 1:
            v, it, cond = comp.clauses[0]
            if cond is None and isinstance(it, N.Name) and it.id == var and v != var:
                return comp
    return None


def subset_count(c: Any, n: N.Call, sc: Any, result_type: Any) -> tuple[Any, str] | None:
    """``n``, a ``count`` of a written-out lambda over ``combinations(L, K)``, compiled to
    count without making the subsets where its lambda is one of the shapes above
    (``_sums``, ``_pairs``) and ``L`` and ``K`` are read as they are (slots, numbers); None
    for anything else (the caller compiles it as written). ``c`` is the compiler, ``sc`` its
    scope."""
    xs_node, lam = n.args
    own = c.sym.functions
    if not (isinstance(xs_node, N.Call) and xs_node.func == "combinations"
            and "combinations" not in own and len(xs_node.args) == 2 and not xs_node.kwargs
            and isinstance(lam.body, N.Compare) and len(lam.body.ops) == 1
            and lam.body.ops[0] in _OPS):
        return None
    x = lam.param
    left, right = lam.body.operands
    if _sum_of_items(left, x, "sum" in own) is not None and \
            not any(isinstance(m, N.Name) and m.id == x for m in N.walk(right)):
        return _sums(c, n, sc, result_type)
    if (each := _pair_item(left, x, own)) is not None and _at(each, x, 1) == right:
        return _pairs(c, n, sc, result_type, each)
    return None


def _prelude(c: Any, n: N.Call, sc: Any) -> tuple[Any, str, re.Match | None, str]:
    """The compiled ``combinations(L, K)`` of ``n``, its type, its ``L`` and ``K`` as they
    are read (or None) and the type of its items."""
    xs_node = n.args[0]
    xsf, xst = c.expr(xs_node, sc)
    comb = re.escape(c.k(BUILTINS["combinations"].impl))
    m = re.fullmatch(comb + r"\((F\[\d+\]|\d+), (F\[\d+\]|\d+)\)", getattr(xsf, "src", ""))
    c._check_kind(BUILTINS["count"], "l", xs_node, xst)
    item = xst[5:-1] if xst.startswith("list[") and xst.endswith("]") else "any"
    return xsf, xst, m, item


def _as_written(c: Any, xsf: Any, bodyf: Any, slot: int) -> Any:
    """``len([1 for x in items_of(xs) if body])``, as ``lambdaloops`` writes a count."""
    seq = c.k(items_of)
    loop = c._localized(c.gen(f"[1 for F[{slot}] in {seq}({{0}}) if {{1}}]", xsf, bodyf),
                        [slot])
    return c.gen("len({0})", loop)


def _sums(c: Any, n: N.Call, sc: Any, result_type: Any) -> tuple[Any, str]:
    """``count(combinations(L, K), x -> sum(E for c in x) OP R)`` where ``E`` calls nothing
    and reads no ``x``, and ``R`` calls nothing and reads neither: the values ``E`` of the
    cards of L, their K-subsets summed (``count_sums``)."""
    lam = n.args[1]
    body = lam.body
    left, right = body.operands
    xsf, xst, m, item = _prelude(c, n, sc)
    saved = dict(sc.slots), dict(sc.types)
    try:
        slot = sc.new_slot(lam.param, item)
        lf, lt = c.expr(left, sc)
        rf, rt = c.expr(right, sc)
    finally:
        sc.slots, sc.types = saved
    c.warnings.extend(never_equal(body, [lt, rt]))
    op = body.ops[0]
    # as e_Compare writes it: a sum is a number, so the comparison charges nothing
    two = "({0} %s {1})" if lt in FLAT_TYPES or rt in FLAT_TYPES else \
        "({0} %s " + c.k(ch) + "({1}))"
    as_written = _as_written(c, xsf, c.gen(two % op, lf, rf), slot)
    ret = result_type(BUILTINS["count"], [xst, "fn"])
    # the sum's comprehension as compiled: sum([E for v in _work(F[x], place)])
    each = re.fullmatch(re.escape(c.k(sum)) + r"\(\[(.*) for (F\[\d+\]|_v\d+) in "
                        + r"_work\(F\[" + str(slot)
                        + r"\], _k\d+\)\]\)", getattr(lf, "src", ""))
    rsrc = getattr(rf, "src", "?(")
    if m is None or each is None or not _charges_nothing(c, each[1]) \
            or f"F[{slot}]" in each[1] or not _charges_nothing(c, rsrc) \
            or f"F[{slot}]" in rsrc or each[2] in rsrc:
        return as_written, ret
    xs, k, v = m[1], m[2], each[2]
    values = c.lit(f"[{each[1]} for {v} in {xs}]")
    if v.startswith("F["):
        values = c._localized(values, [int(v[2:-1])])
    fast = (f"({c.k(count_sums)}({values.src}, {k}, {c.k(_OPS[op])}, {rsrc}) "
            f"if {c.k(plain_subsets)}({xs}, {k}) else {{0}})")
    return c.gen(fast, as_written), ret


def _charges_nothing(c: Any, src: str) -> bool:
    """Whether compiled ``src`` calls nothing but ``type`` and the reads of a card's attribute
    (``Compiler.e_Attr``'s ``attr``, for a value not known to be a card): it charges no work
    and changes nothing, so it may be worked out once per card rather than per subset."""
    for name in re.findall(r"([\w.]+)\(", src):
        if name == "type":
            continue
        f = c.cg.ns.get(name) if re.fullmatch(r"_k\d+", name) else None
        if not getattr(f, "__qualname__", "").endswith("e_Attr.<locals>.attr"):
            return False
    return "?" not in src and "lambda" not in src


# what the value of one card of a pair may be written with: nothing that calls or charges
_PAIR_NODES = (N.Attr, N.Index, N.Const, N.Name)


def _pair_item(node: N.Node, x: str, own: Any) -> N.Node | None:
    """``node`` if it reads ``x`` only as ``x[0]`` and otherwise only card attributes and
    value tables indexed by them (``pips[x[0].rank]``): a value of the pair's first card."""
    seen = 0
    for m in N.walk(node):
        if not isinstance(m, _PAIR_NODES):
            return None
        if isinstance(m, N.Index) and isinstance(m.obj, N.Name) and m.obj.id == x:
            if not (isinstance(m.index, N.Const) and m.index.value == 0
                    and type(m.index.value) is int):
                return None
            seen += 1
        elif isinstance(m, N.Index) and not (isinstance(m.obj, N.Name) and
                                              isinstance(m.index, N.Attr)):
            return None
        elif isinstance(m, N.Name) and m.id in own:
            return None
    uses = sum(isinstance(m, N.Name) and m.id == x for m in N.walk(node))
    return node if seen and seen == uses else None


def _at(node: N.Node, x: str, i: int, var: str | None = None) -> N.Node:
    """``node`` with each ``x[0]`` read as ``x[i]`` (or as the name ``var``)."""
    if isinstance(node, N.Index) and isinstance(node.obj, N.Name) and node.obj.id == x:
        if var is not None:
            return N.Name(node.span, var)
        return N.Index(node.span, node.obj, N.Const(node.index.span, i))
    if isinstance(node, N.Attr):
        return N.Attr(node.span, _at(node.obj, x, i, var), node.name, node.name_span)
    if isinstance(node, N.Index):
        return N.Index(node.span, _at(node.obj, x, i, var), _at(node.index, x, i, var))
    return node


def _pairs(c: Any, n: N.Call, sc: Any, result_type: Any, each: N.Node) -> tuple[Any, str]:
    """``count(combinations(L, 2), x -> E(x[0]) OP E(x[1]))`` where ``E`` reads only card
    attributes and value tables: the values ``E`` of the cards of L, their pairs compared
    (``count_pairs``)."""
    lam = n.args[1]
    xsf, xst, m, item = _prelude(c, n, sc)
    saved = dict(sc.slots), dict(sc.types)
    try:
        slot = sc.new_slot(lam.param, item)
        bodyf = c.expr(lam.body, sc)[0]
    finally:
        sc.slots, sc.types = saved
    as_written = _as_written(c, xsf, bodyf, slot)
    ret = result_type(BUILTINS["count"], [xst, "fn"])
    if m is None or m[2] != "2":
        return as_written, ret
    var = f"@pair{id(n)}"
    saved = dict(sc.slots), dict(sc.types)
    try:
        v = sc.new_slot(var, item[5:-1] if item.startswith("list[") else "any")
        ef = c.expr(_at(each, lam.param, 0, var), sc)[0]
    finally:
        sc.slots, sc.types = saved
    xs = m[1]
    values = c._localized(c.gen(f"[{{0}} for F[{v}] in {xs}]", ef), [v])
    # the count as written, in a closure called only where the values will not do
    fast = (f"{c.k(count_pairs)}({c.k(_OPS[lam.body.ops[0]])}, "
            f"{{0}} if {c.k(plain_pairs)}({xs}) else None, lambda: {{1}})")
    return c.gen(fast, values, as_written), ret
