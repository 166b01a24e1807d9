"""The memo of a pure rules function: a wrapper generated for its number of parameters that
remembers its results by its arguments (``memo``), and the pool that bounds what all the memos
of one game remember together (``MemoPool``).

``functions.memoize_pure`` wraps the functions that read nothing but their arguments. A
remembered result charges the work it cost, so a game's accounting never depends on what ran
before it; how a key is built for lists of lists, and the wrapper of a memo paused for good,
are in ``memokeys.py``. The wrapper's source is compiled by ``codegen`` like all generated code.
"""

from __future__ import annotations

from typing import Any

from .codegen import compiled_code
from .limits import (
    MEMO_ITEMS,
    MEMO_KEY_ITEMS,
    MEMO_LIMIT,
    MEMO_PAUSE,
    MEMO_PROBE,
    MEMO_PROBE_HITS,
    MEMO_RESULT_ITEMS,
)
from .memokeys import closed, deep_parts, exact_fallback, paused_wrapper
from .runtime import WORK, out_of_work

_INT_ONLY = frozenset({int})


def _kept_items(v: Any, order_free: bool) -> int:
    """How many items a result holds (the lists inside it counted, a text's characters), or
    -1 when it is not to be remembered: more than MEMO_RESULT_ITEMS, or, for a function keyed
    by the set of its cards (``order_free``), a float, which the order the cards were added
    in could change."""
    t = type(v)
    if t is str:
        return len(v) if len(v) <= MEMO_RESULT_ITEMS else -1
    if t is float:
        return -1 if order_free else 1
    if t is not list:
        if isinstance(v, list):  # a group on the table
            return len(v) if len(v) <= MEMO_RESULT_ITEMS else -1
        return 1
    if _INT_ONLY.issuperset(map(type, v)):  # cards or numbers (a hand's value): one C scan
        return len(v) if len(v) <= MEMO_RESULT_ITEMS else -1
    # builtins.leaves written out (no generator step per card): the hands and melds that
    # such results are made of are looked through at every call that is not remembered yet
    stack = [v]
    n = 0
    while stack:
        x = stack.pop()
        n += len(x)
        if n > MEMO_RESULT_ITEMS:
            return -1
        for y in x:
            ty = type(y)
            if ty is int:  # a card, mostly
                continue
            if isinstance(y, list):
                stack.append(y)
            elif ty is float:
                if order_free:
                    return -1
            elif ty is str:
                n += len(y)
    return n


class MemoPool:
    """What all the memoised functions of one game remember, and how much: the items of
    their keys and results together stay within MEMO_ITEMS (then they all start afresh), so
    that a memo, which lives as long as the game (across the games of a simulation), is
    bounded in memory whatever the rules compute. Forgetting changes no result and no
    charge (a remembered result charges what it cost), only the time."""

    def __init__(self) -> None:
        self.used = [0]  # items remembered by all of them
        self.caches: list[dict] = []
        self.mine: list[list[int]] = []  # items remembered by each

    def add(self) -> tuple[dict, list[int]]:
        """A new function's memo and its count of items."""
        self.caches.append({})
        self.mine.append([0])
        return self.caches[-1], self.mine[-1]

    def clear(self) -> None:
        for c, m in zip(self.caches, self.mine):
            c.clear()
            m[0] = 0
        self.used[0] = 0


def memo(inner: Any, k: int, order_free: tuple[bool, ...], pool: MemoPool | None = None,
         faces: tuple[dict[int, int] | None, ...] = (),
         weights: dict[int, int] | None = None, deep: bool = False, cheap: bool = False) -> Any:
    """A memoising wrapper of ``inner(S, a0, ...)``, generated for its number of parameters:
    lists become tuples in the key, sorted where their order cannot matter
    (``functions.order_free``); such a result is kept only when exact (see ``_kept_items``).
    An argument that cannot be part of a key (a record, a list holding lists) means the call
    is just computed, as are calls whose list (or text) arguments hold more than
    MEMO_KEY_ITEMS items. The key's items are charged as work on every call that builds one,
    remembered or not. ``pool``: the game's (see ``MemoPool``). A memo that hardly ever finds
    a result is dropped for a while (``MEMO_PROBE``). ``faces``: per parameter, where only
    some attributes of the cards of a list passed there matter (``functions.faces_only``),
    each card that agrees on them with an earlier one -> that card: such a list is keyed by
    those cards, so that the same hand in other suits or packs is found too. ``weights``
    (``functions._weights``), for one order-free parameter: a list of cards only is keyed by
    the sum of its cards' weights, which names the same multiset as the sorted key without
    sorting (anything else in the list: the sorted key). ``deep``: a list of lists (melds) is
    keyed too, each list inside as a tuple, its items counted and charged with the list's;
    its order is kept (``order_free`` is not read). ``cheap``: paused for good (see below)."""
    pool = pool if pool is not None else MemoPool()
    params = [f"a{i}" for i in range(k)]
    more = ""
    if deep:
        order_free = ()
    # a card of such a list as the first card alike (anything else, a number that is no
    # card, as itself)
    items = [f"map(fget{i}, {p}, {p})" if i < len(faces) and faces[i] else p
             for i, p in enumerate(params)]
    # an order-free list is summed first: a list holding lists (which sorting would compare
    # item by item, uncharged) is refused at once with a TypeError, and is then keyed in its
    # order (memokeys.exact_fallback) (the type of a0 is in ``t`` already: see ``size``)
    if deep:  # (``faces`` are not given with it)
        items, more = deep_parts(params)
    keys = [f"(tuple(sorted({it})) if {'t' if p == 'a0' else f'type({p})'} is list and "
            f"(sum({p}) or 1) else {p})" if k_free
            else f"(tuple({it}) if {'t' if p == 'a0' else f'type({p})'} is list else {p})"
            for p, it, k_free in zip(params, items, order_free or (False,) * k)]
    key = keys[0] if k == 1 else "(" + ", ".join(keys) + ("," if k == 1 else "") + ")"
    size = " + ".join(f"(len({p}) if {'t' if p == 'a0' else f'type({p})'} is list or "
                      f"{'t' if p == 'a0' else f'type({p})'} is str else 1)"
                      for p in params) or "1"
    if k == 0:
        key = "()"
    args = ", ".join(["S", *params])
    free = any(order_free)
    # a remembered result charges the work it cost when it was computed, so that a game's
    # accounting is the same whatever ran before it in the process; when that would run the
    # step out of work, the call is computed again, so that the error is the one a first
    # call raises (at the same rules line)
    # seen = [misses, hits, calls left to compute directly] (see MEMO_PROBE): the results
    # and the work charged are the same either way, only the time differs
    head = [
        "    t = type(a0)" if k else "    pass",
        f"    n = {size}{more}",
        f"    if n > {MEMO_KEY_ITEMS}:  # big keys would fill the memory over a long run",
        f"        return inner({args})",
        "    w = WORK[0] - n  # the key is built from the arguments' items",
        "    if w < 0:",
        "        out_of_work()",
        "    if seen[2]:",
        "        WORK[0] = w",
        "        seen[2] -= 1",
        f"        return inner({args})",
        "    try:",
        f"        key = {key}",
        "        hit = get(key)  # (value, cost): never None",
        "    except TypeError:",
        "        WORK[0] = w",
        f"        return inner({args})"]
    if k == 1:
        # the same for one argument, a list (a hand) tested for first: fewer steps a call
        # (the order-free key's sum() only refuses a list of lists, as in ``keys``)
        free1 = bool(order_free and order_free[0])
        head = ["    if type(a0) is list:",
                *("    " + line for line in head[1:] if "t = type" not in line)]
        head[1] = "        n = len(a0)" + more
        at = head.index("            key = " + key)
        head[at:at + 1] = (["            sum(a0)", f"            key = tuple(sorted({items[0]}))"]
                           if free1 else [f"            key = tuple({items[0]})"])
        if free1 and weights and MEMO_KEY_ITEMS < 512:
            # (MARK, sum): no list's sorted key holds MARK, nor is any argument one
            at = head.index("        try:")
            head[at:at + 7] = [
                "        try:", "            s = 0", "            for c in a0:",
                "                s += wt[c]", "            key = (MARK, s)",
                "            hit = get(key)", "        except (KeyError, TypeError):",
                "            try:", *("    " + line for line in head[at + 1:at + 7])]
        head += ["    else:", "        t = type(a0)", f"        n = {size}",
                 f"        if n > {MEMO_KEY_ITEMS}:", f"            return inner({args})",
                 "        w = WORK[0] - n", "        if w < 0:",
                 "            out_of_work()", "        if seen[2]:", "            WORK[0] = w",
                 "            seen[2] -= 1", f"            return inner({args})", "        try:",
                 "            hit = get(a0)", "        except TypeError:",
                 "            WORK[0] = w", f"            return inner({args})", "        key = a0"]
    if free:
        exact_fallback(head, params, items, args)
    src = paused_wrapper(k, size, args, MEMO_KEY_ITEMS) if cheap and not deep else "\n".join([
        f"def _m({args}):",
        *head,
        "    if hit is not None:",
        "        seen[1] += 1",
        "        cost = hit[1]",
        "        if w < cost:",
        "            WORK[0] = w",
        f"            return inner({args})",
        "        WORK[0] = w - cost",
        "        return hit[0]",
        "    WORK[0] = w",
        "    seen[0] += 1",
        f"    if seen[0] >= {MEMO_PROBE}:",
        "        hits = seen[1]",
        "        seen[0] = seen[1] = 0",
        f"        if hits < {MEMO_PROBE_HITS}:",
        "            forget()",
        f"            seen[2] = {MEMO_PAUSE}",
        f"            return inner({args})",
        f"    v = inner({args})",
        f"    r = 1 if type(v) is int else _kept_items(v, {'loose' if free else 'False'})",
        "    if r >= 0:",
        "        r += n",
        f"        if len(cache) >= {MEMO_LIMIT}:",
        "            forget()",
        f"        if used[0] + r > {MEMO_ITEMS}:",
        "            pool.clear()",
        "        cache[key] = (v, w - WORK[0])",
        "        used[0] += r",
        "        mine[0] += r",
        "    return v",
        "",
        "def forget():",
        "    cache.clear()",
        "    used[0] -= mine[0]",
        "    mine[0] = 0"])
    cache, mine = pool.add()
    free = {"inner": inner, "cache": cache, "get": cache.get, "wt": weights, "MARK": object(),
            **{f"fget{i}": f.get for i, f in enumerate(faces) if f}, "used": pool.used,
            "mine": mine, "pool": pool, "seen": [0, 0, 1 << 62 if cheap else 0]}
    return closed(src, free, _MEMO_NS, compiled_code)


_MEMO_NS: dict[str, Any] = {  # what every memo wrapper reads besides its own (memokeys.closed)
    "__builtins__": {f.__name__: f for f in (tuple, sorted, type, len, list, KeyError,
                                             TypeError, sum, str, map, int)},
    "_kept_items": _kept_items, "WORK": WORK, "out_of_work": out_of_work}
