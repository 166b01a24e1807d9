"""The closed table of built-in functions and effects a rules file may call.

Nothing else is callable from rules text: no attribute lookup by a user's name, no imports.
Each entry says how many arguments it takes, what kind each is (a value, a function, a zone),
what it returns (for the checker) and whether it changes the state (an effect).
Limits on sizes (``range``, ``combinations``) keep any rules file from exhausting memory.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import RuntimeRulesError

MAX_COLLECTION = 200_000


@dataclass(frozen=True)
class Builtin:
    name: str
    min_args: int
    max_args: int
    kinds: str  # one letter per parameter: x value, f function, z zone, n ended-by name
    ret: str  # the checker's type of the result
    impl: Callable[..., Any]
    state: bool = False  # impl takes the state as its first argument
    effect: bool = False  # may only be called as a statement
    kwargs: tuple[str, ...] = ()
    doc: str = ""


def _seq(xs: Any) -> list:
    if isinstance(xs, list):
        return xs
    if isinstance(xs, (tuple, range)):
        return list(xs)
    raise RuntimeRulesError(f"expected a list, got {_tname(xs)}")


def _tname(x: Any) -> str:
    if x is None:
        return "none"
    if isinstance(x, bool):
        return "a boolean"
    if isinstance(x, (int, float)):
        return "a number"
    if isinstance(x, str):
        return "a string"
    if isinstance(x, list):
        return "a list"
    return type(x).__name__


def _size(xs: Any) -> int:
    return len(_seq(xs)) if not isinstance(xs, str) else len(xs)


def _agg(pick: Callable[..., Any], name: str) -> Callable[..., Any]:
    def f(*args: Any, key: Callable[[Any], Any] | None = None, default: Any = ...) -> Any:
        if len(args) == 2 and callable(args[1]) and key is None:
            args, key = (args[0],), args[1]
        if len(args) == 1:
            xs = _seq(args[0])
        else:
            xs = list(args)
        if not xs:
            if default is not ...:
                return default
            raise RuntimeRulesError(f"{name}() of an empty list (give default: to allow it)")
        return pick(xs, key=key) if key is not None else pick(xs)

    return f


def _sum(xs: Any, f: Callable[[Any], Any] | None = None) -> Any:
    xs = _seq(xs)
    return sum(f(x) for x in xs) if f else sum(xs)


def _count(xs: Any, f: Callable[[Any], Any] | None = None) -> int:
    xs = _seq(xs)
    return sum(1 for x in xs if f(x)) if f else len(xs)


def _any(xs: Any, f: Callable[[Any], Any] | None = None) -> bool:
    xs = _seq(xs)
    return any(f(x) for x in xs) if f else any(x is not None and x is not False for x in xs)


def _all(xs: Any, f: Callable[[Any], Any] | None = None) -> bool:
    xs = _seq(xs)
    return all(f(x) for x in xs) if f else all(x is not None and x is not False for x in xs)


def _sort(xs: Any, f: Callable[[Any], Any] | None = None, *, desc: bool = False) -> list:
    return sorted(_seq(xs), key=f, reverse=bool(desc))


def _filter(xs: Any, f: Callable[[Any], Any]) -> list:
    return [x for x in _seq(xs) if f(x)]


def _map(xs: Any, f: Callable[[Any], Any]) -> list:
    return [f(x) for x in _seq(xs)]


def _group_by(xs: Any, f: Callable[[Any], Any]) -> list:
    groups: dict[Any, list] = {}
    for x in _seq(xs):
        groups.setdefault(f(x), []).append(x)
    try:
        return [groups[k] for k in sorted(groups)]
    except TypeError:
        return list(groups.values())


def _combinations(xs: Any, k: int) -> list:
    xs = _seq(xs)
    if not isinstance(k, int) or k < 0:
        raise RuntimeRulesError("combinations() needs a size of 0 or more")
    if k <= len(xs) and math.comb(len(xs), k) > MAX_COLLECTION:
        raise RuntimeRulesError(f"combinations() would make more than {MAX_COLLECTION} lists")
    return [list(c) for c in itertools.combinations(xs, k)]


def _range(a: int, b: int | None = None) -> list:
    lo, hi = (0, a) if b is None else (a, b)
    if not isinstance(lo, int) or not isinstance(hi, int):
        raise RuntimeRulesError("range() takes whole numbers")
    if hi - lo > MAX_COLLECTION:
        raise RuntimeRulesError(f"range() of more than {MAX_COLLECTION} numbers")
    return list(range(lo, hi))


def _top(xs: Any, n: int | None = None) -> Any:
    xs = _seq(xs)
    if n is None:
        return xs[0] if xs else None
    return xs[:n]


def _bottom(xs: Any, n: int | None = None) -> Any:
    xs = _seq(xs)
    if n is None:
        return xs[-1] if xs else None
    return xs[-n:] if n else []


def _lowest(xs: Any, f: Callable[[Any], Any]) -> list:
    xs = _seq(xs)
    if not xs:
        return []
    keys = [f(x) for x in xs]
    m = min(keys)
    return [x for x, k in zip(xs, keys) if k == m]


def _highest(xs: Any, f: Callable[[Any], Any]) -> list:
    xs = _seq(xs)
    if not xs:
        return []
    keys = [f(x) for x in xs]
    m = max(keys)
    return [x for x, k in zip(xs, keys) if k == m]


def _ranks_of(xs: Any, f: Callable[[Any], Any]) -> list:
    """Groups of tied items, best (highest key) first: [[a], [b, c], [d]]."""
    xs = _seq(xs)
    keyed = sorted(((f(x), i, x) for i, x in enumerate(xs)), key=lambda t: t[0], reverse=True)
    out: list[list] = []
    last: Any = object()
    for k, _i, x in keyed:
        if out and k == last:
            out[-1].append(x)
        else:
            out.append([x])
            last = k
    return out


def _distinct(xs: Any) -> list:
    seen: list = []
    for x in _seq(xs):
        if x not in seen:
            seen.append(x)
    return seen


def _index_of(xs: Any, x: Any) -> int:
    xs = _seq(xs)
    return xs.index(x) if x in xs else -1


def _first(xs: Any) -> Any:
    xs = _seq(xs)
    return xs[0] if xs else None


def _last(xs: Any) -> Any:
    xs = _seq(xs)
    return xs[-1] if xs else None


def _without(xs: Any, ys: Any) -> list:
    """``xs`` less one occurrence of each item of ``ys`` (a list, or a single item)."""
    out = list(_seq(xs))
    for y in ys if isinstance(ys, list) else [ys]:
        if y in out:
            out.remove(y)
    return out


PURE: dict[str, Builtin] = {
    b.name: b
    for b in [
        Builtin("size", 1, 1, "x", "int", _size, doc="number of items in a list or zone"),
        Builtin("sum", 1, 2, "xf", "num", _sum, doc="sum of a list, or of f(x) over it"),
        Builtin("max", 1, 9, "xxxxxxxxx", "any", _agg(max, "max"), kwargs=("key", "default")),
        Builtin("min", 1, 9, "xxxxxxxxx", "any", _agg(min, "min"), kwargs=("key", "default")),
        Builtin("count", 1, 2, "xf", "int", _count, doc="items (that satisfy f)"),
        Builtin("any", 1, 2, "xf", "bool", _any),
        Builtin("all", 1, 2, "xf", "bool", _all),
        Builtin("sort", 1, 2, "xf", "list", _sort, kwargs=("desc",)),
        Builtin("reverse", 1, 1, "x", "list", lambda xs: list(reversed(_seq(xs)))),
        Builtin("filter", 2, 2, "xf", "list", _filter),
        Builtin("map", 2, 2, "xf", "list", _map),
        Builtin("group_by", 2, 2, "xf", "list", _group_by),
        Builtin("combinations", 2, 2, "xx", "list", _combinations),
        Builtin("range", 1, 2, "xx", "list[int]", _range),
        Builtin("abs", 1, 1, "x", "num", abs),
        Builtin("floor", 1, 1, "x", "int", math.floor),
        Builtin("ceil", 1, 1, "x", "int", math.ceil),
        Builtin("top", 1, 2, "xx", "any", _top, doc="the top card of a zone (none if empty)"),
        Builtin("bottom", 1, 2, "xx", "any", _bottom),
        Builtin("first", 1, 1, "x", "any", _first),
        Builtin("last", 1, 1, "x", "any", _last),
        Builtin("lowest", 2, 2, "xf", "list", _lowest, doc="the items tied for the lowest f"),
        Builtin("highest", 2, 2, "xf", "list", _highest),
        Builtin("ranked", 2, 2, "xf", "list", _ranks_of, doc="groups of tied items, best first"),
        Builtin("distinct", 1, 1, "x", "list", _distinct),
        Builtin("index_of", 2, 2, "xx", "int", _index_of),
        Builtin("without", 2, 2, "xx", "list", _without),
    ]
}
