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

from .display import plain_text, seat_name
from .errors import RuntimeRulesError
from .limits import MAX_COLLECTION
from .runtime import WORK, charge, out_of_work
from .walks import _FLAT_TEXT as _FLAT_TEXT
from .walks import _NUM, compared, contains, items_of, nested
from .walks import SHORT_TEXT as SHORT_TEXT
from .walks import ch as ch
from .walks import deep_items as deep_items
from .walks import key_text as key_text
from .walks import leaves as leaves


@dataclass(frozen=True)
class Builtin:
    """Everything the checker, the compiler and the memo know of one built-in: the one record
    of it (adding a built-in is adding a record to ``BUILTINS``)."""

    name: str
    min_args: int
    max_args: int
    # one letter per parameter: x any value, l a list (or a zone's cards), f a function, z a
    # zone, n a quoted name of a way the round ends; a value of another kind is a check error
    kinds: str
    # the checker's type of the result: a type, or a rule over the arguments' types: "elem"
    # (an item of the first argument), "same" (the first argument's list type), "nested" (a
    # list of such lists)
    ret: str
    impl: Callable[..., Any] | None  # None: a method of the state, or made per deck (meld)
    state: bool = False  # reads the state: generated code calls S.fx_<name>
    effect: bool = False  # changes the game: may only be called as a statement
    kwargs: tuple[str, ...] = ()
    # the result is the same whatever the order of the items of its list argument, when it is
    # given a comprehension (a memoised function fed only to such calls is keyed by the set)
    order_free: bool = False
    meld: bool = False  # a meld finder, made for the game's deck (``meld_funcs``)
    # draws from the state's generator: only in ``match.first_dealer``, which runs once while
    # the game is set up (anywhere else a bot's look-ahead or a legal-move listing would draw)
    setup: bool = False
    doc: str = ""


def _size(xs: Any) -> int:
    if type(xs) is list:  # items_of(xs), written out: the commonest case
        WORK[0] -= len(xs)
        if WORK[0] < 0:
            out_of_work()
        return len(xs)
    return len(items_of(xs)) if not isinstance(xs, str) else len(xs)


def _empty(name: str) -> RuntimeRulesError:
    return RuntimeRulesError(f"{name}() of an empty list (give default: to allow it)")


def _agg(pick: Callable[..., Any], name: str) -> Callable[..., Any]:
    def f(*args: Any, key: Callable[[Any], Any] | None = None, default: Any = ...) -> Any:
        if len(args) == 2 and key is None and type(args[0]) in _NUM and type(args[1]) in _NUM:
            return pick(args)  # two numbers (the common case): nothing to charge
        if len(args) == 2 and callable(args[1]) and key is None:
            args, key = (args[0],), args[1]
        if len(args) == 1:
            xs = args[0]
            xs = items_of(xs)
        else:
            xs = list(args)
        if not xs:
            if default is not ...:
                return default
            raise _empty(name)
        if key is None:
            compared(xs)
            return pick(xs)
        keys = [key(x) for x in xs]
        compared(keys)
        # the first item with the extreme key, as pick(xs, key=key) gives
        return xs[pick(range(len(xs)), key=keys.__getitem__)]

    return f


def _extreme_of(pick: Callable[..., Any], name: str) -> Callable[[list], Any]:
    """``max``/``min`` of a list that a comprehension built (its loop is already paid for)."""
    def f(xs: list) -> Any:
        if not xs:
            raise _empty(name)
        compared(xs)
        return pick(xs)

    return f


EXTREME_OF = {"max": _extreme_of(max, "max"), "min": _extreme_of(min, "min")}


def _sum(xs: Any, f: Callable[[Any], Any] | None = None) -> Any:
    xs = items_of(xs)
    return sum(f(x) for x in xs) if f else sum(xs)


def _count(xs: Any, f: Callable[[Any], Any] | None = None) -> int:
    xs = items_of(xs)
    return len([1 for x in xs if f(x)]) if f else len(xs)  # (each f(x), as sum() took)


def _any(xs: Any, f: Callable[[Any], Any] | None = None) -> bool:
    xs = items_of(xs)
    return any(f(x) for x in xs) if f else any(xs)


def _all(xs: Any, f: Callable[[Any], Any] | None = None) -> bool:
    xs = items_of(xs)
    return all(f(x) for x in xs) if f else all(xs)


def _sort(xs: Any, f: Callable[[Any], Any] | None = None, *, desc: bool = False) -> list:
    xs = items_of(xs)
    if f is None:
        compared(xs, len(xs).bit_length())
        return sorted(xs, reverse=bool(desc))
    keys = [f(x) for x in xs]
    compared(keys, len(xs).bit_length())
    # sorted(xs, key=f, reverse=desc), each key computed once, in the same order
    return [xs[i] for i in sorted(range(len(xs)), key=keys.__getitem__, reverse=bool(desc))]


def _filter(xs: Any, f: Callable[[Any], Any]) -> list:
    xs = items_of(xs)
    return [x for x in xs if f(x)]


def _map(xs: Any, f: Callable[[Any], Any]) -> list:
    xs = items_of(xs)
    return nested([f(x) for x in xs])


def _group_by(xs: Any, f: Callable[[Any], Any]) -> list:
    xs = items_of(xs)
    keys = [f(x) for x in xs]
    return grouped(xs, keys)


_TEXT = frozenset({str})


def grouped(xs: list, keys: list) -> list:
    """``group_by(xs, f)`` where ``keys[i]`` is ``f(xs[i])``: the keys are hashed and
    compared (charged), the groups sorted by key."""
    if (not keys or type(keys[0]) is str) and _TEXT.issuperset(map(type, keys)) \
            and "" not in keys:
        # texts only (ranks, suits), none empty: compared()'s two charges written out
        w = WORK[0] - sum(map(len, keys))
        WORK[0] = w
        if w < 0:
            out_of_work()
        by_text: dict[str, list] = {}
        for k, x in zip(keys, xs):  # (no new list made for each item, as setdefault's)
            g = by_text.get(k)
            if g is None:
                by_text[k] = [x]
            else:
                g.append(x)
        order = sorted(by_text)
        w = WORK[0] - len(order).bit_length() * sum(map(len, order))  # charge(), written out
        WORK[0] = w
        if w < 0:
            out_of_work()
        return [by_text[k] for k in order]
    compared(keys)
    groups: dict[Any, list] = {}
    for k, x in zip(keys, xs):
        groups.setdefault(k, []).append(x)
    compared(list(groups), len(groups).bit_length())
    try:
        return [groups[k] for k in sorted(groups)]
    except TypeError:
        return list(groups.values())


# how many combinations of k items a list of n has, for lists of the size of a hand
_COMB = [[math.comb(n, k) for k in range(n + 1)] for n in range(33)]


def _combinations(xs: Any, k: int, plain: bool = False) -> list:
    if type(xs) is list and type(k) is int and 0 <= k <= len(xs) <= 32 \
            and (plain or list not in map(type, xs)):
        # a hand's cards (no lists inside; ``plain``: a zone's, the compiler knows): the walk
        # and the lists made charged in one go
        total = _COMB[len(xs)][k]
        if total <= MAX_COLLECTION:
            WORK[0] -= len(xs) + total * (k or 1)
            if WORK[0] < 0:
                out_of_work()
            return list(map(list, itertools.combinations(xs, k)))
    xs = items_of(xs)
    if not isinstance(k, int) or k < 0:
        raise RuntimeRulesError("combinations() needs a size of 0 or more")
    n = len(xs)
    if k <= n:
        total = math.comb(n, k)
        if total > MAX_COLLECTION:
            raise RuntimeRulesError(f"combinations() would make more than {MAX_COLLECTION} "
                                    "lists")
        charge(total * (k or 1))
    out = list(map(list, itertools.combinations(xs, k)))
    # lists inside: counted through (see nested)
    return nested(out) if list in map(type, xs) else out


def _range(a: int, b: int | None = None) -> list:
    if b is None and type(a) is int and 0 <= a <= MAX_COLLECTION:  # range(size(...)), mostly
        WORK[0] -= a
        if WORK[0] < 0:
            out_of_work()
        return list(range(a))
    lo, hi = (0, a) if b is None else (a, b)
    if not isinstance(lo, int) or not isinstance(hi, int):
        raise RuntimeRulesError("range() takes whole numbers")
    if hi - lo > MAX_COLLECTION:
        raise RuntimeRulesError(f"range() of more than {MAX_COLLECTION} numbers")
    charge(max(0, hi - lo))
    return list(range(lo, hi))


def _top(xs: Any, n: int | None = None) -> Any:
    xs = items_of(xs)
    if n is None:
        return xs[0] if xs else None
    return xs[:n]


def top_of_zone(z: list) -> Any:
    """``top(zone)`` of a zone, which is always a list: ``_top``'s charge without its checks
    (the compiler calls it where the argument is a zone: calls.py)."""
    WORK[0] -= len(z)
    if WORK[0] < 0:
        out_of_work()
    return z[0] if z else None


def bottom_of_zone(z: list) -> Any:
    """``bottom(zone)`` of a zone (the card led to a trick), as ``top_of_zone`` is ``top``."""
    WORK[0] -= len(z)
    if WORK[0] < 0:
        out_of_work()
    return z[-1] if z else None


def _bottom(xs: Any, n: int | None = None) -> Any:
    xs = items_of(xs)
    if n is None:
        return xs[-1] if xs else None
    return xs[-n:] if n else []


def _lowest(xs: Any, f: Callable[[Any], Any]) -> list:
    xs = items_of(xs)
    if not xs:
        return []
    keys = [f(x) for x in xs]
    compared(keys, 2)
    m = min(keys)
    return [x for x, k in zip(xs, keys) if k == m]


def _highest(xs: Any, f: Callable[[Any], Any]) -> list:
    xs = items_of(xs)
    if not xs:
        return []
    keys = [f(x) for x in xs]
    compared(keys, 2)
    m = max(keys)
    return [x for x, k in zip(xs, keys) if k == m]


def _ranks_of(xs: Any, f: Callable[[Any], Any]) -> list:
    """Groups of tied items, best (highest key) first: [[a], [b, c], [d]]."""
    xs = items_of(xs)
    keys = [f(x) for x in xs]
    compared(keys, len(xs).bit_length() + 1)
    keyed = sorted(((k, i, x) for i, (k, x) in enumerate(zip(keys, xs))), key=lambda t: t[0],
                   reverse=True)
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
    xs = items_of(xs)
    try:  # hashable items (cards, ranks, seats): the first of each, as the loop below keeps
        return list(dict.fromkeys(xs))
    except TypeError:
        pass
    out: list = []
    seen: set = set()  # hashable items are looked up at once; lists among them one by one
    for x in xs:
        try:
            if x in seen:
                continue
            seen.add(x)
        except TypeError:
            if contains(x, out):
                continue
        out.append(x)
    return out


def charged(xs: Any) -> Any:
    """``xs`` for ``x in xs``: a search of a list looks at each of its items."""
    if type(xs) is list:
        WORK[0] -= len(xs)
        if WORK[0] < 0:
            out_of_work()
    return xs


def _index_of(xs: Any, x: Any) -> int:
    xs = items_of(xs)
    if not contains(x, xs):
        return -1
    return xs.index(x)


def _last(xs: Any) -> Any:
    xs = items_of(xs)
    return xs[-1] if xs else None


def _without(xs: Any, ys: Any) -> list:
    """``xs`` less one occurrence of each item of ``ys`` (a list, or a single item)."""
    out = list(items_of(xs))
    ys = ys if isinstance(ys, list) else [ys]
    for y in ys:
        if contains(y, out):  # each one is searched for (charged), then taken out
            out.remove(y)
    return out


def _median(xs: Any) -> Any:
    """The middle item of the sorted numbers (the mean of the two middle ones when even)."""
    v = items_of(xs)
    compared(v, len(v).bit_length())
    v = sorted(v)
    if not v:
        raise _empty("median")
    m = len(v) // 2
    return v[m] if len(v) % 2 else (v[m - 1] + v[m]) / 2


def _b(name: str, mn: int, mx: int, kinds: str, ret: str, impl: Any = None, **kw: Any) -> Builtin:
    return Builtin(name, mn, mx, kinds, ret, impl, **kw)  # (short, for the table below)

BUILTINS: dict[str, Builtin] = {
    b.name: b
    for b in [
        # values from values
        _b("size", 1, 1, "l", "int", _size, doc="number of items in a list or zone"),
        _b("sum", 1, 2, "lf", "num", _sum, order_free=True,
           doc="sum of a list, or of f(x) over it"),
        _b("max", 1, 9, "xxxxxxxxx", "elem", _agg(max, "max"), kwargs=("key", "default"),
           order_free=True),
        _b("min", 1, 9, "xxxxxxxxx", "elem", _agg(min, "min"), kwargs=("key", "default"),
           order_free=True),
        _b("median", 1, 1, "l", "num", _median, doc="the middle of a list of numbers"),
        _b("count", 1, 2, "lf", "int", _count, doc="items (that satisfy f)"),
        _b("any", 1, 2, "lf", "bool", _any, order_free=True),
        _b("all", 1, 2, "lf", "bool", _all, order_free=True),
        _b("sort", 1, 2, "lf", "same", _sort, kwargs=("desc",)),
        _b("reverse", 1, 1, "l", "same", lambda xs: list(reversed(items_of(xs)))),
        _b("filter", 2, 2, "lf", "same", _filter),
        _b("map", 2, 2, "lf", "list", _map),
        _b("group_by", 2, 2, "lf", "nested", _group_by),
        _b("combinations", 2, 2, "lx", "nested", _combinations),
        _b("range", 1, 2, "xx", "list[int]", _range),
        _b("abs", 1, 1, "x", "num", abs),
        _b("floor", 1, 1, "x", "int", math.floor),
        _b("ceil", 1, 1, "x", "int", math.ceil),
        _b("top", 1, 2, "lx", "elem", _top, doc="the top card of a zone (none if empty)"),
        _b("bottom", 1, 2, "lx", "elem", _bottom),
        _b("first", 1, 1, "l", "elem", _top),  # top(xs) of one argument
        _b("last", 1, 1, "l", "elem", _last),
        _b("lowest", 2, 2, "lf", "same", _lowest, doc="the items tied for the lowest f"),
        _b("highest", 2, 2, "lf", "same", _highest),
        _b("ranked", 2, 2, "lf", "nested", _ranks_of, doc="groups of tied items, best first"),
        _b("distinct", 1, 1, "l", "same", _distinct),
        _b("index_of", 2, 2, "xx", "int", _index_of),
        _b("without", 2, 2, "xx", "same", _without),
        # meld finders, made for the game's deck (meld_funcs)
        _b("sets", 1, 3, "lxx", "list[list[card]]", meld=True,
           kwargs=("wild", "max_wild", "all_wild", "key")),
        _b("runs", 1, 2, "lx", "list[list[card]]", meld=True, kwargs=("ace", "suited")),
        _b("is_set", 1, 1, "l", "bool", meld=True, kwargs=("wild", "max_wild")),
        _b("is_run", 1, 1, "l", "bool", meld=True, kwargs=("ace", "suited")),
        _b("disjoint", 2, 2, "lx", "list[list[list[card]]]", meld=True),
        # the state's: reading it (S.fx_<name>, engine.State and table.Table)
        _b("next_seat", 1, 2, "xx", "seat", state=True),
        _b("prev_seat", 1, 2, "xx", "seat", state=True),
        _b("seats_from", 1, 1, "x", "list[seat]", state=True),
        _b("active", 1, 1, "x", "bool", state=True),
        _b("owner", 1, 1, "x", "seat", state=True),
        _b("zone_of", 1, 1, "x", "str", state=True),
        _b("visible_to", 2, 2, "xx", "bool", state=True),
        _b("cut", 1, 2, "lf", "seat", state=True, setup=True,
           doc="each seat cuts a card from a freshly shuffled deck; highest by f deals"),
        # tricks and teams (tricks.py, teams.py)
        _b("played_by", 1, 1, "x", "seat", state=True, doc="who played a card in a trick zone"),
        _b("winning_card", 1, 1, "l", "card", state=True, kwargs=("trump", "lead", "suit", "key")),
        _b("trick_winner", 1, 1, "l", "seat", state=True, kwargs=("trump", "lead", "suit", "key")),
        _b("team_of", 1, 1, "x", "int", state=True),
        _b("teammates", 1, 1, "x", "list[seat]", state=True),
        _b("partner", 1, 1, "x", "seat", state=True),
        _b("team_seats", 1, 1, "x", "list[seat]", state=True),
        _b("teams", 0, 0, "", "list[int]", state=True),
        # ... and changing it: effects
        _b("move", 2, 2, "xz", "none", state=True, effect=True, kwargs=("at", "face")),
        _b("shuffle", 1, 1, "z", "none", state=True, effect=True),
        _b("gather", 1, 1, "z", "none", state=True, effect=True),
        _b("deal", 3, 3, "zzx", "none", state=True, effect=True, kwargs=("start", "face")),
        _b("show", 1, 1, "x", "none", state=True, effect=True),
        _b("hide", 1, 1, "x", "none", state=True, effect=True),
        _b("show_none", 2, 2, "zf", "none", state=True, effect=True,
           doc="tells every seat that a zone holds no card c for which f(c) is true (for now: "
               "until a card enters it); bots' samples of the hidden cards keep to it"),
        _b("eliminate", 1, 1, "x", "none", state=True, effect=True),
        _b("reverse_direction", 0, 0, "", "none", state=True, effect=True,
           doc="play goes the other way round the table (until the round ends)"),
        _b("set_direction", 1, 1, "x", "none", state=True, effect=True,
           doc="play goes 'clockwise' or 'anticlockwise' (until the round ends)"),
        _b("meld", 2, 2, "xz", "none", state=True, effect=True),
        _b("unmeld", 1, 2, "xz", "none", state=True, effect=True, kwargs=("at", "face"),
           doc="takes a group off the table, its cards to the zone named"),
        _b("end_round", 1, 1, "n", "none", state=True, effect=True),
        _b("log", 1, 1, "x", "none", state=True, effect=True),
        _b("text", 1, 9, "xxxxxxxxx", "str", plain_text,
           doc="its arguments written for people, one after another: a seat as P1, a card by "
               "name, flags as yes/no (a log line, a display text)"),
        _b("seat_name", 1, 1, "x", "str", seat_name, doc="a seat as text: P1 (none: nobody)"),
    ]
}
KNOWN_KWARGS = frozenset(k for b in BUILTINS.values() for k in b.kwargs)
