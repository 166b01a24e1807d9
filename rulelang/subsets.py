"""Counting the subsets of a hand whose values add up to something, without making them:
``count(combinations(cs, k), x -> sum(v[c.rank] for c in x) == 15)``.

Written as the built-ins would run it, such a count makes every subset as a list, and for
each one a comprehension over its cards and a sum: a Python frame and a call per subset. Here
the cards' values (``v[c.rank]``, an expression of the card alone that calls nothing) are read
once per card of the hand, and the subsets are made of those values and summed by
``itertools`` and ``sum``; each sum compared as the rules text compares it (``==``, ``<``...).
The same subsets are summed in the same order (each sum adds the same values in the same
order), so the count is the same; the work charged is what the subsets, the loop over them and
the loop over each subset's cards charge, in one go. Anything but a plain hand (a list of
lists, a size that is not a whole number from 1 to the hand's size, more than 32 cards) runs
the comprehension as written.
"""

from __future__ import annotations

import itertools
import math
import operator
import re
from typing import Any

from . import nodes as N
from .builtins import BUILTINS, items_of
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
    if type(xs) is list and type(k) is int and 0 < k <= len(xs) <= _PLAIN \
            and list not in map(type, xs):
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


def subset_sums(c: Any, n: N.Call, sc: Any, result_type: Any) -> tuple[Any, str] | None:
    """``n``, ``count(combinations(L, K), x -> sum(E for c in x) OP R)``, compiled to count
    the sums without making the subsets where ``L`` and ``K`` are read as they are (slots,
    numbers), ``E`` calls nothing and reads no more than its card, and ``R`` calls nothing
    and reads no ``x``; None for anything else (the caller compiles it as written). ``c`` is
    the compiler, ``sc`` its scope."""
    xs_node, lam = n.args
    own = c.sym.functions
    if not (isinstance(xs_node, N.Call) and xs_node.func == "combinations"
            and "combinations" not in own and len(xs_node.args) == 2 and not xs_node.kwargs
            and isinstance(lam.body, N.Compare) and len(lam.body.ops) == 1
            and lam.body.ops[0] in _OPS):
        return None
    body = lam.body
    x = lam.param
    left, right = body.operands
    comp = _sum_of_items(left, x, "sum" in own)
    if comp is None or any(isinstance(m, N.Name) and m.id == x for m in N.walk(right)):
        return None
    b = BUILTINS["count"]
    xsf, xst = c.expr(xs_node, sc)
    comb = re.escape(c.k(BUILTINS["combinations"].impl))
    m = re.fullmatch(comb + r"\((F\[\d+\]|\d+), (F\[\d+\]|\d+)\)", getattr(xsf, "src", ""))
    c._check_kind(b, "l", xs_node, xst)
    item = xst[5:-1] if xst.startswith("list[") and xst.endswith("]") else "any"
    saved = dict(sc.slots), dict(sc.types)
    try:
        slot = sc.new_slot(x, item)
        lf, lt = c.expr(left, sc)
        rf, rt = c.expr(right, sc)
    finally:
        sc.slots, sc.types = saved
    c.warnings.extend(never_equal(body, [lt, rt]))
    op = body.ops[0]
    if lt not in FLAT_TYPES and rt not in FLAT_TYPES:
        return None  # a comparison that charges: not this path (as written is not either)
    bodyf = c.gen(f"({{0}} {op} {{1}})", lf, rf)
    seq = c.k(items_of)
    loop = c._localized(c.gen(f"[1 for F[{slot}] in {seq}({{0}}) if {{1}}]", xsf, bodyf),
                        [slot])
    as_written = c.gen("len({0})", loop)
    ret = result_type(b, [xst, "fn"])
    # the sum's comprehension as compiled: sum([E for F[v] in work(F[x], place)])
    each = re.fullmatch(re.escape(c.k(sum)) + r"\(\[(.*) for (F\[\d+\]|_v\d+) in "
                        + r"_work\(F\[" + str(slot)
                        + r"\], _k\d+\)\]\)", getattr(lf, "src", ""))
    rsrc = getattr(rf, "src", "(")
    if m is None or each is None or "(" in each[1] or f"F[{slot}]" in each[1] \
            or "(" in rsrc or f"F[{slot}]" in rsrc or each[2] in rsrc:
        return as_written, ret
    xs, k, v = m[1], m[2], each[2]
    values = c.lit(f"[{each[1]} for {v} in {xs}]")
    if v.startswith("F["):
        values = c._localized(values, [int(v[2:-1])])
    fast = (f"({c.k(count_sums)}({values.src}, {k}, {c.k(_OPS[op])}, {rsrc}) "
            f"if {c.k(plain_subsets)}({xs}, {k}) else {{0}})")
    return c.gen(fast, as_written), ret
