"""Bounded walks of lists inside lists: values the rules make can share lists (``x = [x, x]``
sixty times is sixty small lists but 2^60 items), so every walk through them stops at a limit.

``nested`` bounds (and charges) each list made of other values; ``key_text`` and ``leaves``
walk a value whose size is bounded by the caller's limit.
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


def numbers_only(xs: list) -> bool:
    """Whether ``xs`` (not empty) holds whole and decimal numbers only (cards, seats,
    scores), told in C: their sum is one only if each item is; a list of texts is not summed
    (a TypeError raised costs more than ``compared``'s test of the types it saves)."""
    try:
        return type(xs[0]) in _NUMBERS and type(sum(xs)) in _NUMBERS
    except TypeError:  # a text, list, record or none among them
        return False


_NUMBERS = frozenset({int, float})

