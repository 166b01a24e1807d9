"""Cards put into groups by one of their attributes: ``[[c for c in cards if c.suit == s] for
s in suits]`` (a hand's suits, to find a flush; its ranks, for sets) looks each card's
attribute up once per group, and makes a comprehension per group. Compiled here as one pass
over the cards that puts each into the group of its attribute's value, then a list per value
of the outer list: the same lists, in the same order, with the same work charged and the same
errors (``card_groups``), where the outer list is a constant of numbers and texts (``suits``,
``ranks``, a list written out) and the test is that equality with the outer variable.

``attr_reader`` is the reader of an attribute (``x.key``) of a value the checker cannot type,
which compiled code calls for anything but a card of the deck (compile.py too).
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

from . import nodes as N
from .errors import RuntimeRulesError
from .groups import Group
from .limits import MAX_COLLECTION, MEMO_KEY_ITEMS
from .runtime import WORK, out_of_work
from .scope import CARD_ATTRS, elem_of, flat_table
from .walks import nested


def attr_reader(key: str, ctable: Any) -> Any:
    """``o.key`` for any value ``o``: a card's value from its deck's table ``ctable`` (None
    where ``key`` is no card attribute), a record's field, a group's owner or number."""
    def attr(o: Any) -> Any:
        if type(o) is int and ctable is not None and 0 <= o < len(ctable):
            return ctable[o]  # a card whose type the checker could not tell
        if isinstance(o, dict):
            if key not in o:
                raise RuntimeRulesError(f"this record has no field '{key}'")
            return o[key]
        if isinstance(o, int) and not isinstance(o, bool) and ctable is not None:
            table = ctable
            if 0 <= o < len(table):
                return table[o]
            raise RuntimeRulesError(f"{o!r} is not a card")
        if isinstance(o, Group) and key in ("owner", "number"):
            return getattr(o, key)
        raise RuntimeRulesError(f"cannot take '.{key}' of this value")

    return attr


def grouping(n: N.Comprehension) -> tuple[str, str, N.Node, str] | None:
    """For ``[[x for x in L if x.key == v] for v in V]`` (either side of ``==``; ``L`` a name,
    none of the three names the same): (L's name, key, V, x); None for anything else."""
    if len(n.clauses) != 1 or n.clauses[0][2] is not None:
        return None
    v, vs, _ = n.clauses[0]
    inner = n.elt
    if not isinstance(inner, N.Comprehension) or len(inner.clauses) != 1:
        return None
    x, xs, cond = inner.clauses[0]
    if not (isinstance(xs, N.Name) and isinstance(inner.elt, N.Name) and inner.elt.id == x
            and isinstance(cond, N.Compare) and cond.ops == ("==",)
            and len({v, x, xs.id}) == 3):
        return None
    a, b = cond.operands
    if isinstance(b, N.Attr):
        a, b = b, a
    if not (isinstance(a, N.Attr) and isinstance(a.obj, N.Name) and a.obj.id == x
            and isinstance(b, N.Name) and b.id == v):
        return None
    return xs.id, a.name, vs, x


def card_groups(xs: Any, vs: list, table: Any, n: int, fa: Any, outer: Any, inner: Any) -> list:
    """``[[x for x in xs if x.key == v] for v in vs]`` as compiled (``nested`` of the outer
    list; ``vs`` numbers and texts): ``table`` the key's values of the deck's ``n`` cards,
    ``fa`` its reader of anything else (``attr_reader``), ``outer``/``inner`` the two loops'
    places. Each card's value is read once; the loops' charges (``vs``, then ``xs`` once per
    value) and their errors come as the loops would give them: a value that cannot be read
    fails while the first group is made, before the other groups' charges."""
    WORK[0] -= len(vs)
    if WORK[0] < 0:
        out_of_work(outer)
    if not vs:
        return []
    WORK[0] -= len(xs)
    if WORK[0] < 0:
        out_of_work(inner)
    groups: dict[Any, list] = {}
    get = groups.get
    for x in xs:
        k = table[x] if type(x) is int and 0 <= x < n else fa(x)
        try:
            g = get(k)
        except TypeError:  # a record's list or record: equal to no number or text
            continue
        if g is None:
            groups[k] = [x]
        else:
            g.append(x)
    WORK[0] -= (len(vs) - 1) * len(xs)
    if WORK[0] < 0:
        out_of_work(inner)
    out = list(map(list, map(get, vs, repeat((), len(vs)))))
    # nested(out), written out: the groups hold no lists (a list's attribute fails above)
    total = len(vs) + sum(map(len, out))
    if total > MAX_COLLECTION:
        return nested(out)  # (its error)
    WORK[0] -= total
    if WORK[0] < 0:
        out_of_work()
    return out


def summing(n: N.Comprehension, values: Any) -> tuple[str, str, N.Node, str, N.Node] | None:
    """For ``[sum(E for x in L if x.key == v) for v in V]`` (either side of ``==``; ``L`` a
    name, the three names distinct), where ``E`` is ``t[x.rank]`` of a value table ``t``
    (one of ``values``) or a card attribute ``x.a``: (L's name, key, V, x, E); None else."""
    if len(n.clauses) != 1 or n.clauses[0][2] is not None:
        return None
    v, vs, _ = n.clauses[0]
    call = n.elt
    if not (isinstance(call, N.Call) and call.func == "sum" and len(call.args) == 1
            and not call.kwargs and isinstance(call.args[0], N.Comprehension)):
        return None
    inner = call.args[0]
    if len(inner.clauses) != 1:
        return None
    x, xs, cond = inner.clauses[0]
    if not (isinstance(xs, N.Name) and isinstance(cond, N.Compare) and cond.ops == ("==",)
            and len({v, x, xs.id}) == 3):
        return None
    a, b = cond.operands
    if isinstance(b, N.Attr):
        a, b = b, a
    e = inner.elt
    if isinstance(e, N.Index) and isinstance(e.obj, N.Name) and e.obj.id in values:
        e = e.index  # t[x.rank]: the table's value by card id (compile.py's e_Index)
        if not (isinstance(e, N.Attr) and e.name == "rank"):
            return None
    if not (isinstance(a, N.Attr) and isinstance(a.obj, N.Name) and a.obj.id == x
            and isinstance(b, N.Name) and b.id == v
            and isinstance(e, N.Attr) and isinstance(e.obj, N.Name) and e.obj.id == x):
        return None
    return xs.id, a.name, vs, x, inner.elt


_INTS = frozenset({int})


def card_sums(xs: Any, where: tuple, vals: tuple, n: int, k: int, outer: Any,
              inner: Any, packed: dict[int, int] | None = None, most: int = -1,
              pick: Any = None) -> Any:
    """``[sum(E for x in xs if x.key == v) for v in vs]`` as compiled (``summing``; the
    ``k`` values ``vs`` distinct numbers or texts): ``where`` each card's index in ``vs`` (k:
    none), ``vals`` each card's whole number ``E``, for the deck's ``n`` cards; one pass, each
    card looked up once, the loops' charges (``vs``, then ``xs`` once per value) as they
    would come. None (nothing charged) where an item of ``xs`` is no card of the deck: the
    loops as written then give their own results and errors. With ``pick`` (``max`` or
    ``min`` of the sums, ``card_sums_call``): ``(pick(sums),)``, the numbers picked as the
    rules' ``max``/``min`` of a comprehension picks them (whole numbers: nothing to charge).
    ``packed`` (values of no card negative): each card -> its value shifted to the byte of its
    group, so that a list of up to ``most`` cards (no sum past 255) is summed in C, each sum a
    byte of the total; a number that is no card is no key of it (a float or ``true`` equal to
    one are told by their type first)."""
    if type(xs) is not list:
        return None
    if len(xs) <= most and _INTS.issuperset(map(type, xs)):
        try:
            tot = sum(map(packed.__getitem__, xs))  # type: ignore[union-attr]
        except KeyError:
            return None
        m = k * len(xs)
        w = WORK[0] = WORK[0] - k - m
        if w < 0:
            out_of_work(outer if w + m < 0 else inner)
        b = tot.to_bytes(k, "little")
        return list(b) if pick is None else (pick(b),)
    sums = [0] * (k + 1)  # (sums[k]: the cards of no value of vs)
    for x in xs:
        if type(x) is not int or not 0 <= x < n:
            return None
        sums[where[x]] += vals[x]
    del sums[k]
    m = k * len(xs)  # the inner loop's charges; the outer loop's k come first
    w = WORK[0] = WORK[0] - k - m
    if w < 0:  # (out_of_work resets the allowance)
        out_of_work(outer if w + m < 0 else inner)
    return sums if pick is None else (pick(sums),)


PICK = "\x00pick\x00"  # where card_sums_call's call for max/min names the picking function


def card_sums_call(cp: Any, n: N.Comprehension, sc: Any) -> Any:
    """For ``summing``'s comprehensions whose ``V`` is a constant list of distinct values of
    the key's kind and whose ``E`` is a whole number for every card of the deck: a function
    of the comprehension compiled as written (``f``) giving ``card_sums(...) or f``, the
    loops as written only where ``L`` holds something else than the deck's cards; else None.
    ``cp``: the compiler."""
    sym = cp.sym
    found = summing(n, sym.values)
    if found is None or "sum" in sym.functions:
        return None
    _lname, key, vs, _x, e = found
    keys = sym.card_attrs[key][0] if key in sym.card_attrs else getattr(sym, "card_" + key, None)
    kind = sym.card_attrs[key][1] if key in sym.card_attrs else CARD_ATTRS.get(key)
    if isinstance(e, N.Index):
        if e.obj.id in sc.slots:  # (a local of that name, not the value table)
            return None
        vals = sym.card_values.get(e.obj.id)
    else:
        vals = (sym.card_attrs[e.name][0] if e.name in sym.card_attrs
                else getattr(sym, "card_" + e.name, None))
    want = {"str": str, "int": int}.get(kind or "")
    if (keys is None or vals is None or want is None or not flat_table(keys)
            or any(type(v) is not int for v in vals)):
        return None
    errors = len(cp.errors)
    lf, lt = cp.expr(n.elt.args[0].clauses[0][1], sc)
    if isinstance(vs, N.ListLit) and all(isinstance(v, N.Const) for v in vs.items):
        vf = cp.lit(cp.k([v.value for v in vs.items]))
    else:  # (suits, ranks: a constant already)
        vf = cp.expr(vs, sc)[0]
    values = getattr(vf, "ns", None) and vf.ns.ns.get(vf.src)
    if (len(cp.errors) > errors or type(values) is not list or not values
            or elem_of(lt) not in ("any", "card")
            or (isinstance(e, N.Attr) and elem_of(lt) != "card")  # (else nested() charges)
            or any(type(v) is not want for v in values) or len(set(values)) < len(values)):
        del cp.errors[errors:]  # (the loops as written report them)
        return None
    where = tuple(values.index(k) if k in values else len(values) for k in keys)
    if sc.fn is not None:  # one loop, not two, for the memo's judgement (functions._one_pass)
        sc.fn.one_pass.add(id(n))
    nc, k = min(len(keys), len(vals)), len(values)
    counted = [vals[c] for c in range(nc) if where[c] < k]
    packs = ", None, -1"
    packed: dict[int, int] = {}
    most = -1
    if all(v >= 0 for v in counted):  # (each sum a byte of one number: card_sums)
        top = max(counted, default=0)
        packed = {c: vals[c] << 8 * where[c] if where[c] < k else 0 for c in range(nc)}
        most = 255 // top if top else MAX_COLLECTION
        packs = f", {cp.k(packed)}, {most}"
    call = (f"{cp.k(card_sums)}({{0}}, {cp.k(where)}, {cp.k(vals)}, {nc}, {k}, "
            f"{cp.k(n.span)}, {cp.k(n.elt.args[0].span)}{packs})")

    def sums(f: Any) -> Any:
        out = cp.gen("(" + call + " or {1})", lf, f)
        # (for max/min of it: calls.py asks card_sums to pick, the loops' list picked else;
        # and where the list is a function's argument, functions.install sums it in place)
        inline = None if packs == ", None, -1" else (
            getattr(lf, "src", None), cp.k(packed), most, k, cp.k(n.span),
            cp.k(n.elt.args[0].span))
        out.sums = (cp.gen(call[:-1] + ", {1})", lf, cp.lit(PICK)).src, f, inline)
        return out

    return sums


def sums_in_place(ns: Any, packed: str, most: int, k: int, outer: str, inner: str,
                  pick: str) -> tuple[list[str], list[str]]:
    """For a rules function whose body is ``max``/``min`` of ``card_sums`` of its argument
    (packed): its fast path written into it (``functions.install``), the same result, charges
    and places of running out of work; anything else falls to the body as compiled. Two
    parts: the first, before ``functions._key_charge``'s lines, takes that charge and the
    sums' in one subtraction where the allowance covers both (then neither could run out:
    the same count is left); else the second, after them, charges the sums where they did."""
    test = (f"    if type(a0) is list and len(a0) <= {most} and "
            f"{ns.k(frozenset({int}))}.issuperset({ns.k(map)}(type, a0)):")
    tot = ["        try:",
           f"            _tot = {ns.k(sum)}({ns.k(map)}({packed}.__getitem__, a0))",
           f"        except {ns.k(KeyError)}:", "            _tot = -1", "        if _tot >= 0:"]
    done = f"return {pick}(_tot.to_bytes({k}, 'little'))"
    # the key's charge (its items, then the call's unit) and the sums' (k, and k an item),
    # where the key is the whole list (no more items than a key keeps)
    first = [] if most > MEMO_KEY_ITEMS else [
        test, *tot, f"            _left = WORK[0] - {k + 1} * len(a0) - {k + 1}",
        "            if _left >= 0:", "                WORK[0] = _left", f"                {done}"]
    return first, [
        test, *tot, f"            _keyn = {k} * len(a0)",
        f"            _left = WORK[0] = WORK[0] - {k} - _keyn", "            if _left < 0:",
        f"                _out_of_work({outer} if _left + _keyn < 0 else {inner})",
        f"            {done}"]
