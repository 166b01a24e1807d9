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
from .limits import MAX_COLLECTION
from .runtime import WORK, out_of_work
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
