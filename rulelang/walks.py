"""Bounded walks of lists inside lists: values the rules make can share lists (``x = [x, x]``
sixty times is sixty small lists but 2^60 items), so every walk through them stops at a limit.

``nested`` bounds (and charges) each list made of other values; ``key_text`` and ``leaves``
walk a value whose size is bounded by the caller's limit. What looking at a value charges to
the step's work allowance (a list's items taken: ``items_of``; what comparing or searching
values looks at: ``deep_items``, ``compared``, ``ch``, ``contains``) is here too, beside the
walks it uses; ``builtins`` re-exports it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import Any

from .errors import RuntimeRulesError
from .limits import KEY_ITEMS, MAX_COLLECTION
from .runtime import WORK, charge, out_of_work


def _items_inside(xs: list, limit: int, message: str) -> int:
    """How many items ``xs`` holds, counting through the lists inside it; more than ``limit``
    is the error ``message``. Lists can share lists (``x = [x, x]`` sixty times is sixty small
    lists but 2^60 items), so the count stops at the limit."""
    n = len(xs)
    if list not in map(type, xs):  # the common case: no lists inside (one C-level scan)
        return n
    inner = [x for x in xs if type(x) is list]
    # one level at a time, each summed and scanned in C (a hand's groups, a list of melds:
    # lists of cards, where the next level holds no list); a level holds no more lists than
    # the items counted before it, which stay within ``limit``
    while inner:
        n += sum(map(len, inner))
        if n > limit:
            raise RuntimeRulesError(message)
        if list not in map(type, chain.from_iterable(inner)):
            return n
        inner = [y for x in inner for y in x if type(y) is list]
    return n


_LIST = frozenset({list})
FLAT = frozenset({int, float, bool, type(None)})  # values one comparison looks at at once


def flat_lists(xs: list) -> int:
    """For a list of lists of numbers only (a list of hand values): the sum of what
    ``builtins.deep_items`` gives for each (its length, 1 if empty), whose charges one at a
    time run out of work exactly when their sum does; -1 for anything else."""
    if _LIST.issuperset(map(type, xs)) and FLAT.issuperset(map(type, chain.from_iterable(xs))):
        return sum(map(len, xs)) + xs.count([])
    return -1


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


def nested(xs: list) -> list:
    """``xs``, a list just made of other values, unless it holds more than MAX_COLLECTION items
    counted through the lists inside it. Lists can share lists: ``x = [x, x]`` sixty times is
    sixty small lists but 2^60 items, which ``==`` or ``distinct`` would walk for ever; with
    every list made this way bounded, every walk is. The count is charged as work."""
    if list not in map(type, xs):  # no lists inside: its items, charged (charge(), written out)
        WORK[0] -= len(xs)
        if WORK[0] < 0:
            out_of_work()
        return xs
    charge(_items_inside(xs, MAX_COLLECTION, f"a list of more than {MAX_COLLECTION} items, "
                                             "counting the items of the lists inside it"))
    return xs


def nested_flat(xs: list) -> list:
    """``nested(xs)`` where each item of ``xs`` is a combination of a zone's cards
    (``[h for k in range(1, 4) for h in combinations(hand[me], k)]``: a zone holds cards only,
    so no list lies deeper): the same count, charge and error, without looking deeper (an item
    that has no length falls back)."""
    try:
        n = len(xs) + sum(map(len, xs))
    except TypeError:
        return nested(xs)
    if n > MAX_COLLECTION:
        raise RuntimeRulesError(f"a list of more than {MAX_COLLECTION} items, counting the "
                                "items of the lists inside it")
    WORK[0] -= n
    if WORK[0] < 0:
        out_of_work()
    return xs


def items_of(xs: Any) -> list:
    if isinstance(xs, list):
        WORK[0] -= len(xs)
        if WORK[0] < 0:
            out_of_work()
        return xs
    if isinstance(xs, (tuple, range)):
        charge(len(xs))
        return list(xs)
    raise RuntimeRulesError(f"expected a list, got {_tname(xs)}")


# values that one comparison looks at in one go: anything else (a list, a text, a record) is
# compared item by item, and that is work (FLAT)
_FLAT_TEXT = FLAT | {str}
_NUM = frozenset({int, float})
# a text this short is compared in about the time of one unit of work (a card's rank, a name)
SHORT_TEXT = 64


def deep_items(v: Any) -> int:
    """How many items comparing ``v`` with another value may look at: 1 for a number, a
    text's characters, the items of a list or a record and of the lists, records and texts
    inside it. The walk stops past what is left of the step's allowance (lists can share
    lists, and the count is charged)."""
    t = type(v)
    if t in FLAT:
        return 1
    if t is str:
        return len(v) or 1
    if not isinstance(v, (list, dict)):
        return 1
    limit = max(0, WORK[0])
    n = 0
    stack = [v]
    while stack and n <= limit:
        x = stack.pop()
        vals = x.values() if isinstance(x, dict) else x
        n += len(x) or 1
        if FLAT.issuperset(map(type, vals)):  # the common case, looked at without a Python loop
            continue
        for y in vals:
            if type(y) is str:
                n += len(y)
            elif isinstance(y, (list, dict)):
                stack.append(y)
    return n


def compared(xs: list, times: int = 1) -> None:
    """Charge what comparing the items of ``xs`` with one another may look at beyond one
    unit each (paid by whoever walked the list): the items of the lists, texts and records
    among them, ``times`` over (a sort compares each item about log2(n) times)."""
    if not xs:
        return
    try:  # numbers_only(xs), written out: numbers need no charge
        if type(xs[0]) in _NUM and type(sum(xs)) in _NUM:  # (one C scan: the sum)
            return
    except TypeError:  # a text, list, record or none among them
        pass
    if not FLAT.issuperset(map(type, xs)):
        if (n := flat_lists(xs)) >= 0:  # lists of numbers (hand values): charged at once
            charge(times * n)
            return
        if _FLAT_TEXT.issuperset(map(type, xs)):  # texts (ranks, names): their characters
            charge(times * sum([len(x) or 1 for x in xs if type(x) is str]))
            return
        for x in xs:  # charged one by one: the walk stops where the allowance runs out
            if type(x) not in FLAT:
                charge(times * deep_items(x))


def ch(v: Any) -> Any:
    """``v``, a side of a comparison (``==``, ``<``...) of values that may be lists: what the
    comparison may look at is charged (it looks at no more than the items of either side)."""
    t = type(v)
    if t not in FLAT and (t is not str or len(v) > SHORT_TEXT):
        charge(deep_items(v))
    return v


def contains(x: Any, xs: Any) -> bool:
    """``x in xs`` with the search charged: a list's items, and for a list, text or record
    ``x`` the items of each item it may be compared with through; a text's characters."""
    t = type(x)
    if type(xs) is list and (t is int or (t is str and len(x) <= SHORT_TEXT)):
        # a card, a seat or a rank searched for in a list: the common case, written out
        WORK[0] -= len(xs)
        if WORK[0] < 0:
            out_of_work()
        return x in xs
    if isinstance(xs, list):
        n = len(xs)
        if t not in FLAT and (t is not str or len(x) > SHORT_TEXT):
            # items that are lists, texts or records may each be compared through
            k = sum([1 for y in xs if type(y) not in FLAT])
            n += k * deep_items(x)
        charge(n)
    elif isinstance(xs, str):
        charge(len(xs))
    return x in xs


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
