"""``count``, ``filter``, ``sort``, ``group_by``, ``lowest``, ``highest``, ``any`` and ``all``
of a written-out lambda, as comprehensions (``any`` and ``all`` as generators, which stop at
the answer as the built-ins do).

``count(h, c -> c.rank == r)`` given a lambda calls it once per item: a Python call that
stores the item in the lambda's frame slot, then the body. The compiler writes such a call as
a comprehension over the list instead, with the body inline and the loop variable in that slot
(``len([1 for F[7] in items_of(h) if F[7] ...])``): the same items looked at in the same order,
the same errors, and the same work charged (``items_of`` charges the list once, as the built-in
does), with no call per item; the loop variable also takes the list's item type, so a card's
attributes are read from the deck's tables directly. ``sort`` and ``group_by`` get the keys
as a list made by such a comprehension and order or group the items by it (``sorted_by``,
``builtins.grouped``), exactly as the built-ins do with a key function; ``lowest`` and ``highest``
pick the items tied for the least or greatest key (``lowest_by``, ``highest_by``).
"""

from __future__ import annotations

import re
from typing import Any

from . import nodes as N
from .builtins import Builtin, compared, grouped, items_of
from .cardtables import keyed
from .codegen import Src, localize, src_of
from .runtime import WORK, out_of_work
from .subsets import subset_count

# the built-ins written as comprehensions when given a lambda
LOOPED = frozenset({"count", "filter", "sort", "group_by", "lowest", "highest", "any", "all"})


def sorted_by(xs: list, keys: list) -> list:
    """``sorted(xs, key=f)`` where ``keys[i]`` is ``f(xs[i])``: stable, and comparing the same
    keys in the same order (so keys that cannot be compared fail alike)."""
    compared(keys, len(keys).bit_length())
    return [xs[i] for i in sorted(range(len(xs)), key=keys.__getitem__)]


def sorted_by_desc(xs: list, keys: list) -> list:
    """``sort(xs, f, desc: true)`` where ``keys[i]`` is ``f(xs[i])`` (``builtins._sort``)."""
    compared(keys, len(keys).bit_length())
    return [xs[i] for i in sorted(range(len(xs)), key=keys.__getitem__, reverse=True)]


def lowest_by(xs: list, keys: list) -> list:
    """``lowest(xs, f)`` where ``keys[i]`` is ``f(xs[i])`` (``builtins._lowest``)."""
    if not xs:
        return []
    compared(keys, 2)
    m = min(keys)
    return [x for x, k in zip(xs, keys) if k == m]


def highest_by(xs: list, keys: list) -> list:
    """``highest(xs, f)`` where ``keys[i]`` is ``f(xs[i])`` (``builtins._highest``)."""
    if not xs:
        return []
    compared(keys, 2)
    m = max(keys)
    return [x for x, k in zip(xs, keys) if k == m]


# grouped_texts's last answer: (the cards, idx, the groups, the two charges). A step that
# groups a hand and a heuristic judging the step that groups the same hand again are common
# (a hand's books laid, then the hand scored); comparing the cards costs less than grouping
_LAST: list[Any] = [None, None, (), 0, 0]


def grouped_texts(xs: list, idx: list, klen: list) -> list:
    """``builtins.grouped(xs, [table[x] for x in xs])`` for cards ``xs`` and a table of the
    deck's cards whose values are non-empty texts (``c.rank``, ``c.suit``), given for each card
    ``idx``, the place of its text among the table's texts in sorted order, and ``klen``, the
    text's length: the same groups and charges, with no list of keys made and no key's type
    looked at (a grouping of a hand by rank runs a few times in every step of some games)."""
    last = _LAST
    if idx is last[1] and xs == last[0]:
        w1, w2 = last[3], last[4]
        groups = last[2]
    else:
        w1 = sum(map(klen.__getitem__, xs))
        by: dict[int, list] = {}
        get = by.get
        for x in xs:
            k = idx[x]
            g = get(k)
            if g is None:
                by[k] = [x]
            else:
                g.append(x)
        order = sorted(by)
        groups = [by[k] for k in order]
        w2 = len(order).bit_length() * sum([klen[g[0]] for g in groups])
        last[:] = xs[:], idx, groups, w1, w2
    w = WORK[0] - w1
    WORK[0] = w
    if w < 0:
        out_of_work()
    w = WORK[0] - w2
    WORK[0] = w
    if w < 0:
        out_of_work()
    # copies: the groups may be moved on the table and changed there (meld)
    return [g.copy() for g in groups]


def _text_table(c: Any, body: Any, slot: int) -> list[str] | None:
    """For a key that is a card's entry in a constant table of non-empty texts (``c ->
    c.rank``, compiled as ``_kT[_vS]``): the names of ``grouped_texts``'s ``idx`` and
    ``klen``; else None."""
    if not isinstance(body, Src):
        return None
    local = localize(src_of(body, c.cg)[0], [slot])
    m = local and re.fullmatch(rf"\(?(_k\d+)\[_v{slot}\]\)?", local)
    if not m:
        return None
    table = c.cg.ns.get(m.group(1))
    if type(table) not in (tuple, list) or not table \
            or not all(type(t) is str and t for t in table):
        return None
    key = tuple(table)
    got = _TEXT_TABLES.get(key)
    if got is None:  # one idx for equal tables: grouped_texts's _LAST is kept by it
        order = {t: i for i, t in enumerate(sorted(set(table)))}
        got = _TEXT_TABLES[key] = [order[t] for t in table], [len(t) for t in table]
    return [c.k(got[0]), c.k(got[1])]


_TEXT_TABLES: dict[tuple, tuple[list, list]] = {}


BY = {"sort": sorted_by, "group_by": grouped, "lowest": lowest_by, "highest": highest_by}


def lambda_loop(c: Any, n: N.Call, b: Builtin, sc: Any,
                result_type: Any) -> tuple[Any, str] | None:
    """``n`` (a call of a built-in in ``LOOPED``) as a comprehension, or None when it is not
    given a written-out lambda or takes keyword arguments (but sort's ``desc:`` written out as
    true or false). ``c`` is the compiler (``compile.Compiler``, which imports this module),
    ``sc`` its scope."""
    desc = _written_desc(n) if b.name == "sort" else None
    if len(n.args) != 2 or not isinstance(n.args[1], N.Lambda) or (n.kwargs and desc is None):
        return None
    xs_node, lam = n.args
    if b.name == "count" and (subsets := subset_count(c, n, sc, result_type)) is not None:
        return subsets
    xsf, xst = c.expr(xs_node, sc)
    c._check_kind(b, "l", xs_node, xst)
    # the loop variable is an item of the list (as a comprehension's is)
    item = xst[5:-1] if xst.startswith("list[") and xst.endswith("]") else "any"
    if b.name in ("any", "all") or desc is not None:
        # untyped, as the built-in's lambda was: what its comparisons charge stays the same
        item = "any"
    saved = dict(sc.slots), dict(sc.types)
    try:
        # the items of sort and group_by are looped over twice: the list is kept in a slot
        held = sc.new_slot(f"@items{id(n)}") if b.name in BY else -1
        slot = sc.new_slot(lam.param, item)
        body = c.expr(lam.body, sc)[0]
    finally:
        sc.slots, sc.types = saved
    seq = c.k(items_of)
    ret = result_type(b, [xst, "fn"])
    # the comprehension alone, so that its loop variable can become a Python local
    if b.name == "count":
        loop = c._localized(c.gen(f"[1 for F[{slot}] in {seq}({{0}}) if {{1}}]", xsf, body),
                            [slot])
        return c.gen("len({0})", loop), ret
    if b.name in ("any", "all"):  # a generator: stops at the answer, as the built-in does
        return c._localized(c.gen(f"{b.name}({{1}} for F[{slot}] in {seq}({{0}}))", xsf, body),
                            [slot]), ret
    if b.name == "filter":
        return c._localized(c.gen(f"[F[{slot}] for F[{slot}] in {seq}({{0}}) if {{1}}]",
                                  xsf, body), [slot]), ret
    if b.name == "group_by" and item == "card" and (tt := _text_table(c, body, slot)):
        return c.gen(f"{c.k(grouped_texts)}({seq}({{0}}), {', '.join(tt)})", xsf), ret
    keys = (item in ("card", "int", "seat", "any") and _tabled(c, body, slot, held)) or \
        c._localized(c.gen(f"[{{0}} for F[{slot}] in F[{held}]]", body), [slot])
    if isinstance(lam.body, N.Name) and lam.body.id == lam.param:  # x -> x: the items are
        keys = c.lit(f"F[{held}]")  # the keys (only read), no copy made of them
    by = c.k(sorted_by_desc if desc else BY[b.name])
    return c.gen(f"(F.__setitem__({held}, {seq}({{0}})) or {by}(F[{held}], {{1}}))",
                 xsf, keys), ret


# what a key's body may name besides its item, constants and the values it closes over
_PY_NAMES = frozenset({"type", "int", "str", "len", "list", "is", "and", "or", "not", "if",
                       "else", "in", "None", "True", "False"})


def _tabled(c: Any, body: Any, slot: int, held: int) -> Src | None:
    """The keys of a ``sort``/``group_by``/``lowest``/``highest`` as ``cardtables.keyed``
    answers them, remembered per card, where the key's body reads its item as a card and
    calls something (a body of table reads alone is cheaper written out), and reads
    nothing but its item, constants and
    variables it does not bind (parameters, the frame's slots, outer loops' variables: their
    values are part of the table's key); None otherwise (the comprehension)."""
    if not isinstance(body, Src):
        return None
    src, depth = src_of(body, c.cg)
    local = localize(src, [slot])
    item = f"_v{slot}"
    if local is None or re.search(r"\bF(?!\[\d+\])", local) or "'" in local or '"' in local \
            or not re.search(r"\b_k\d+\(", re.sub(rf"else _k\d+\({item}\)", "", local)) \
            or not re.search(rf"\b_k\d+\[{item}\]", local):
        return None  # (an attribute read's call for what is no card is not counted)
    free = set()
    for name in re.findall(r"[A-Za-z_]\w*", local):
        if name in _PY_NAMES or name == item or name == "F" or re.fullmatch(r"_k\d+", name):
            continue
        if not re.fullmatch(r"a\d+|_q\d+|_v\d+", name):
            return None  # the state, a frame written to, a lambda, a loop...
        free.add(name)
    vals = sorted(free) + sorted(set(re.findall(r"\bF\[\d+\]", local)))
    site = c.k(object())
    return Src(f"{c.k(keyed)}(F[{held}], {site}, ({''.join(v + ', ' for v in vals)}), "
               f"(lambda {item}: {local}))", c.cg, depth + 1)


def _written_desc(n: N.Call) -> bool | None:
    """A sort's ``desc:`` when it is its only keyword and written out as true or false (a
    constant: nothing to evaluate, no order of evaluation to keep); None otherwise."""
    if len(n.kwargs) != 1 or n.kwargs[0][0] != "desc":
        return None
    v = n.kwargs[0][1]
    return v.value if isinstance(v, N.Const) and type(v.value) is bool else None
