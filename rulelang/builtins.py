"""The closed table of built-in functions and effects a rules file may call.

Nothing else is callable from rules text: no attribute lookup by a user's name, no imports.
Each entry says how many arguments it takes, what kind each is (a value, a function, a zone),
what it returns (for the checker) and whether it changes the state (an effect).
Limits on sizes (``range``, ``combinations``) keep any rules file from exhausting memory.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .errors import RuntimeRulesError

MAX_COLLECTION = 200_000
# Loop iterations (for, while, comprehensions, and the items a built-in walks) allowed in one
# engine step: nested loops over big lists could otherwise keep the machine busy for hours.
# WORK[0] is what is left; the engine sets it back to MAX_WORK at every step. Each pass of a
# loop, each call of a rules function or procedure and each item of a list made takes one.
MAX_WORK = 20_000_000
WORK = [MAX_WORK]


def out_of_work(span: Any = None) -> None:
    WORK[0] = MAX_WORK  # whoever catches the error starts afresh
    raise RuntimeRulesError(f"the rules looped more than {MAX_WORK} times in one step, "
                            "counting function calls and the items of the lists they made "
                            "(nested loops over big lists, or functions that call each other "
                            "many times?)", span)


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


def charge(n: int) -> None:
    """Take ``n`` from the step's work allowance: the items of a list made or copied (a loop of
    a few thousand passes, each making a list of 200,000 numbers, runs a minute otherwise)."""
    WORK[0] -= n
    if WORK[0] < 0:
        out_of_work()


def _seq(xs: Any) -> list:
    if isinstance(xs, list):
        WORK[0] -= len(xs)
        if WORK[0] < 0:
            out_of_work()
        return xs
    if isinstance(xs, (tuple, range)):
        charge(len(xs))
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


def _empty(name: str) -> RuntimeRulesError:
    return RuntimeRulesError(f"{name}() of an empty list (give default: to allow it)")


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
            raise _empty(name)
        return pick(xs, key=key) if key is not None else pick(xs)

    return f


def _extreme_of(pick: Callable[..., Any], name: str) -> Callable[[list], Any]:
    """``max``/``min`` of a list that a comprehension built (its loop is already paid for)."""
    def f(xs: list) -> Any:
        if not xs:
            raise _empty(name)
        return pick(xs)

    return f


EXTREME_OF = {"max": _extreme_of(max, "max"), "min": _extreme_of(min, "min")}


def _sum(xs: Any, f: Callable[[Any], Any] | None = None) -> Any:
    xs = _seq(xs)
    return sum(f(x) for x in xs) if f else sum(xs)


def _count(xs: Any, f: Callable[[Any], Any] | None = None) -> int:
    xs = _seq(xs)
    return sum(1 for x in xs if f(x)) if f else len(xs)


def _any(xs: Any, f: Callable[[Any], Any] | None = None) -> bool:
    xs = _seq(xs)
    return any(f(x) for x in xs) if f else any(xs)


def _all(xs: Any, f: Callable[[Any], Any] | None = None) -> bool:
    xs = _seq(xs)
    return all(f(x) for x in xs) if f else all(xs)


def _sort(xs: Any, f: Callable[[Any], Any] | None = None, *, desc: bool = False) -> list:
    return sorted(_seq(xs), key=f, reverse=bool(desc))


def _filter(xs: Any, f: Callable[[Any], Any]) -> list:
    return [x for x in _seq(xs) if f(x)]


def _map(xs: Any, f: Callable[[Any], Any]) -> list:
    return nested([f(x) for x in _seq(xs)])


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
    if k <= len(xs):
        charge(math.comb(len(xs), k) * max(1, k))
    out = [list(c) for c in itertools.combinations(xs, k)]
    return nested(out) if any(type(x) is list for x in xs) else out


def _range(a: int, b: int | None = None) -> list:
    lo, hi = (0, a) if b is None else (a, b)
    if not isinstance(lo, int) or not isinstance(hi, int):
        raise RuntimeRulesError("range() takes whole numbers")
    if hi - lo > MAX_COLLECTION:
        raise RuntimeRulesError(f"range() of more than {MAX_COLLECTION} numbers")
    charge(max(0, hi - lo))
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
    out: list = []
    seen: set = set()  # hashable items are looked up at once; lists among them one by one
    for x in _seq(xs):
        try:
            if x in seen:
                continue
            seen.add(x)
        except TypeError:
            charge(len(out))
            if x in out:
                continue
        out.append(x)
    return out


def _items_inside(xs: list, limit: int, message: str) -> int:
    """How many items ``xs`` holds, counting through the lists inside it; more than ``limit``
    is the error ``message``. Lists can share lists (``x = [x, x]`` sixty times is sixty small
    lists but 2^60 items), so the count stops at the limit."""
    n = len(xs)
    inner = [x for x in xs if type(x) is list]
    while inner:
        x = inner.pop()
        n += len(x)
        if n > limit:
            raise RuntimeRulesError(message)
        inner.extend([y for y in x if type(y) is list])
    return n


def leaves(v: Any, limit: int) -> Iterator[Any]:
    """The items of ``v`` and of the lists inside it, down to what is not a list; a value with
    more than ``limit`` of them is an error. Lists can share lists (``a = [a, a]`` in a loop
    makes 2^60 items out of 60 lists), so a walk of one must be bounded."""
    stack = [v]
    n = 0
    while stack:
        x = stack.pop()
        if type(x) is list:
            n += len(x)
            if n > limit:
                raise RuntimeRulesError(f"a value of more than {limit} items inside one another")
            stack.extend(x)
        else:
            yield x


def key_text(v: Any) -> str:
    """The text of a ``key:`` value that cards are compared by (bounded, see ``leaves``)."""
    if type(v) is list:
        _items_inside(v, KEY_ITEMS, f"a value of more than {KEY_ITEMS} items inside one another")
    return repr(v)


KEY_ITEMS = 1_000


def nested(xs: list) -> list:
    """``xs``, a list just made of other values, unless it holds more than MAX_COLLECTION items
    counted through the lists inside it. Lists can share lists: ``x = [x, x]`` sixty times is
    sixty small lists but 2^60 items, which ``==`` or ``distinct`` would walk for ever; with
    every list made this way bounded, every walk is. The count is charged as work."""
    charge(_items_inside(xs, MAX_COLLECTION, f"a list of more than {MAX_COLLECTION} items, "
                                             "counting the items of the lists inside it"))
    return xs


def charged(xs: Any) -> Any:
    """``xs`` for ``x in xs``: a search of a list looks at each of its items."""
    if type(xs) is list:
        WORK[0] -= len(xs)
        if WORK[0] < 0:
            out_of_work()
    return xs


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
    ys = ys if isinstance(ys, list) else [ys]
    charge(len(out) * len(ys))  # each one is searched for
    for y in ys:
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


class Group(list):
    """A group of cards laid on the table (a meld): a copy of its cards that knows its zone,
    its owner and its number, so that a move can name it (``P2#1``) and effects can add to it."""

    __slots__ = ("zid", "owner", "number", "container")

    def __init__(self, cards: list, zid: int, owner: int, number: int, container: str) -> None:
        super().__init__(cards)
        self.zid = zid
        self.owner = owner
        self.number = number
        self.container = container

    def label(self) -> str:
        return f"P{self.owner}#{self.number}" if self.owner >= 0 else \
            f"{self.container}#{self.number}"

    __hash__ = None  # type: ignore[assignment]


MAX_MELDS = 5_000
# a rank's place in a run (the ace's is 1 or 14, set by the finders' ace: argument)
RUN_PLACE = {r: i for i, r in enumerate("23456789TJQK", start=2)}


def _first_of_each(classes: list[list[int]], k: int) -> Any:
    """Every way to take k cards from the classes, the first cards of each class."""
    if k == 0:
        yield []
        return
    if not classes or sum(len(c) for c in classes) < k:
        return
    head, rest = classes[0], classes[1:]
    for n in range(min(k, len(head)), -1, -1):
        for tail in _first_of_each(rest, k - n):
            yield head[:n] + tail


def _meld_funcs(rank: tuple, suit: tuple, order: tuple, name: tuple, nranks: int
                ) -> dict[str, Callable[..., Any]]:
    """Set and run finders over the deck's card tables (built once per game)."""

    def dedupe(options: list[list[int]], same: Any = None) -> list[list[int]]:
        """The options without repeats: equal names, or equal ``same`` keys, are one option
        (the first seen is kept)."""
        seen: set[tuple] = set()
        out = []
        for o in options:
            o = sorted(o, key=lambda c: (order[c], suit[c] or "", c))
            key = tuple(name[c] for c in o) if same is None else \
                tuple(sorted(key_text(same(c)) for c in o))
            if key not in seen:
                seen.add(key)
                out.append(o)
                if len(out) > MAX_MELDS:
                    raise RuntimeRulesError(f"more than {MAX_MELDS} melds to choose from")
        return out

    def by_name(cs: list[int]) -> list[int]:
        """One card per distinct name: identical cards are interchangeable in a choice."""
        seen: dict[str, int] = {}
        for c in cs:
            seen.setdefault(name[c], c)
        return list(seen.values())

    def split(cards: Any, wild: Callable[[Any], Any] | None) -> tuple[list[int], list[int]]:
        cs = _seq(cards)
        if wild is None:
            return list(cs), []
        w = [c for c in cs if wild(c)]
        return [c for c in cs if c not in w], w

    def sets(cards: Any, lo: int = 3, hi: int | None = None, *, wild: Any = None,
             max_wild: int = 0, all_wild: bool = False, key: Any = None) -> list[list[int]]:
        """Every set of lo..hi cards of one rank, with at most max_wild wild cards. With
        ``key``, cards with equal keys are interchangeable: one set per choice of keys, made of
        the first such cards in the list's order."""
        hi = lo if hi is None else hi
        nat, wilds = split(cards, wild)
        hi = min(hi, len(nat) + len(wilds))  # no set is bigger than the cards given
        ranks: dict[str, list[int]] = {}
        for c in nat:
            ranks.setdefault(rank[c], []).append(c)
        out: list[list[int]] = []

        def choices(cs: list[int], k: int) -> Any:
            """Every choice of k of the cards; with a key, one per mix of keys (the first
            cards of each key), so that many equal cards cost nothing."""
            classes: dict[str, list[int]] = {}
            if key is not None:
                for c in cs:
                    classes.setdefault(key_text(key(c)), []).append(c)
            # many wild cards make astronomically many choices: bound them before making any
            n = math.comb(len(cs), k) if key is None else \
                math.comb(max(0, len(classes) + k - 1), k)
            if n > MAX_COLLECTION:
                raise RuntimeRulesError(f"sets(): more than {MAX_COLLECTION} ways to choose "
                                        f"{k} of {len(cs)} cards (fewer wild cards, or a "
                                        "lower max_wild:?)")
            charge(n)
            if key is None:
                return itertools.combinations(cs, k)
            return _first_of_each(list(classes.values()), k)

        wild_choices = {k: [list(x) for x in choices(wilds, k)]
                        for k in range(0, min(max_wild, len(wilds)) + 1)}
        for r in sorted(ranks, key=lambda r: order[ranks[r][0]]):
            group = ranks[r]
            for size in range(lo, hi + 1):
                for k, wcs in wild_choices.items():
                    a = size - k
                    if a < 1 or a > len(group):
                        continue
                    for nc in choices(group, a):
                        for wc in wcs:
                            out.append(list(nc) + wc)
                        if len(out) > MAX_MELDS * 4:
                            raise RuntimeRulesError(f"more than {MAX_MELDS} melds to choose from")
        if all_wild:
            for size in range(lo, min(hi, len(wilds)) + 1):
                out.extend(list(x) for x in choices(wilds, size))
        return dedupe(out, key)

    def positions(c: int, ace: str) -> list[int]:
        # places in the natural sequence A(low) 2 .. K A(high), whatever order the deck lists
        # its ranks in (an ace-low deck lists A first)
        r = rank[c]
        if r == "A":
            return [1] if ace == "low" else [14] if ace == "high" else [1, 14]
        return [RUN_PLACE[r]]

    def runs(cards: Any, lo: int = 3, *, ace: str = "low") -> list[list[int]]:
        """Every run of lo or more cards in sequence in one suit (no wild cards)."""
        out: list[list[int]] = []
        suits: dict[Any, dict[int, int]] = {}
        for c in by_name(_seq(cards)):
            if rank[c] == "JK":
                continue
            for p in positions(c, ace):
                suits.setdefault(suit[c], {})[p] = c
        for s in suits:
            at = suits[s]
            for start in sorted(at):
                seq = []
                p = start
                while p in at:
                    seq.append(at[p])
                    p += 1
                    if len(seq) >= lo:
                        out.append(list(seq))
        return dedupe(out)

    def is_set(cards: Any, *, wild: Any = None, max_wild: int | None = None) -> bool:
        nat, wilds = split(cards, wild)
        if max_wild is not None and len(wilds) > max_wild:
            return False
        return len({rank[c] for c in nat}) <= 1 and len(nat) + len(wilds) > 0

    def is_run(cards: Any, *, ace: str = "low") -> bool:
        cs = _seq(cards)
        if not cs or len({suit[c] for c in cs}) != 1 or any(rank[c] == "JK" for c in cs):
            return False
        places = [positions(c, ace) for c in cs]
        # only an ace under ace: 'both' has two places, 1 and 14, and a run takes each place
        # once: with three such cards it cannot be a run (and 2^40 choices would be tried)
        if sum(len(p) > 1 for p in places) > 2:
            return False
        for choice in itertools.product(*places):
            ps = sorted(choice)
            if all(b == a + 1 for a, b in zip(ps, ps[1:])):
                return True
        return False

    def disjoint(melds: Any, k: int) -> list[list[list[int]]]:
        """Every choice of k melds that share no card."""
        ms = _seq(melds)
        if not isinstance(k, int) or k < 0:
            raise RuntimeRulesError("disjoint() needs a number of melds of 0 or more")
        charge(math.comb(len(ms), k))  # every choice is looked at, even when none is kept
        out = []
        for combo in itertools.combinations(ms, k):
            used: set[int] = set()
            ok = True
            for m in combo:
                if used & set(m):
                    ok = False
                    break
                used |= set(m)
            if ok:
                out.append([list(m) for m in combo])
                if len(out) > MAX_MELDS:
                    raise RuntimeRulesError(f"more than {MAX_MELDS} meld choices")
        return nested(out)

    _ = nranks
    return {"sets": sets, "runs": runs, "is_set": is_set, "is_run": is_run,
            "disjoint": disjoint}


# name: (min args, max args, kinds, return type, keyword arguments)
MELD_SPECS: dict[str, tuple[int, int, str, str, tuple[str, ...]]] = {
    "sets": (1, 3, "xxx", "list[list[card]]", ("wild", "max_wild", "all_wild", "key")),
    "runs": (1, 2, "xx", "list[list[card]]", ("ace",)),
    "is_set": (1, 1, "x", "bool", ("wild", "max_wild")),
    "is_run": (1, 1, "x", "bool", ("ace",)),
    "disjoint": (2, 2, "xx", "list[list[list[card]]]", ()),
}
