"""A meld finder's per-card functions (``wild:``, ``key:``) answered from tables by card id.

A rules lambda such as ``c -> c.rank in w`` is called by ``sets()`` once per card on every
call. Generated code reads the game state only through the state object ``S`` and the frame,
both reached through the lambda's closure, and everything else it reads (card tables, data)
is fixed for the compiled game. So a lambda whose closure holds only plain values (whole
numbers, texts, lists of them: ``w``, a list of ranks) answers the same for a card whenever
its code and those values are the same: its answers are remembered per card id, with the
work each cost, and a finder charges that work again each time it reads one, so that a
game's accounting is the same whatever ran before it in the process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .builtins import key_text
from .runtime import WORK, charge, out_of_work

# (code, closure values) -> {card id: (answer, work it cost)}
Tables = dict[Any, dict[int, tuple[Any, int]]]

_MAX_TABLES = 64  # tables of many rules files (or many closure values) in one process
_LAST = object()  # a table's key for table_of's last answer (a lambda's code, list, table)
_MAX_LIST = 64  # a longer list in a closure is not made a key (its lambda is called)


def _frozen(v: Any) -> Any:
    """A hashable stand-in for a closure value, equal exactly when the values are (types
    told apart: ``1``, ``True`` and ``'1'`` are not one key), or None when ``v`` is not a
    plain value (the state, a frame, a record...)."""
    t = type(v)
    if t is int or t is bool or v is None:
        return (t, v)
    if isinstance(v, str):  # (texts read from the rules file are str's own subclass)
        return (str, v)
    if t is list and len(v) <= _MAX_LIST:
        for x in v:
            if type(x) is not int and not isinstance(x, str):
                return None
        return (list, tuple(v))  # (1 and '1' are not equal: no types needed)
    return None


def table_of(fn: Any, tables: Tables) -> dict[int, tuple[Any, int]] | None:
    """The remembered answers of ``fn`` per card id, shared by every ``fn`` of the same code
    and closure values; None when its closure holds anything but plain values."""
    try:  # (a rules lambda: a plain function; anything else has no table)
        code = fn.__code__
        cells = fn.__closure__
    except AttributeError:
        return None
    # the commonest call: the lambda of the last call again (made anew by the same code)
    # closing over the same list (the wild ranks), unchanged since (a list a zone is, say,
    # changes in place, hence the comparison; no other list is changed after it is made)
    last = tables.get(_LAST)
    if last is not None and last[0] is code and type(cells) is tuple and len(cells) == 1:
        try:
            v = cells[0].cell_contents
        except ValueError:  # a cell not filled yet
            return None
        if v is last[1] and v == last[2]:
            return last[3]
    # (keyed by the code's id, not the code: hashing a code object hashes all its bytecode,
    # ~2,000 instructions a call; the table keeps its code, so an id used again by another
    # code object once this one is gone finds a table that is not its own)
    if cells is None:
        key: Any = id(code)
    elif type(cells) is tuple:
        vals = []
        for cell in cells:
            try:
                v = cell.cell_contents
            except ValueError:  # a cell not filled yet
                return None
            # _frozen(v), with its commonest case (a short list of texts: ranks) written
            # out, as this runs on every call of a finder
            if type(v) is list and len(v) <= _MAX_LIST:
                for x in v:
                    if type(x) is not int and not isinstance(x, str):
                        return None
                vals.append((list, tuple(v)))
                continue
            f = _frozen(v)
            if f is None:
                return None
            vals.append(f)
        key = (id(code), tuple(vals))
    else:
        return None
    got = tables.get(key)
    if got is None or got.code is not code:
        if len(tables) >= _MAX_TABLES:
            tables.clear()
        got = tables[key] = _Table()
        got.code = code
    if len(cells or ()) == 1 and vals[0][0] is list:  # (see above)
        tables[_LAST] = (code, v, list(v), got)  # (the list itself, what it held)
    return got


class _Table(dict):
    """A table of answers by card id, and the code it answers for (``table_of``); ``packed``:
    the answers as a finder reads them in one go (``meldbits.RankCounts.packed``)."""

    __slots__ = ("code", "packed")

    def __init__(self) -> None:
        super().__init__()
        self.packed: dict[int, Any] = {}


def answer(fn: Callable[[Any], Any], tab: dict[int, tuple[Any, int]], c: Any) -> Any:
    """``fn(c)``: read from ``tab`` (charging the work it cost) for a card id, else called."""
    got = tab.get(c) if type(c) is int else None
    if got is None:
        if type(c) is not int:
            return fn(c)
        w = WORK[0]
        v = fn(c)
        tab[c] = (v, w - WORK[0])
        return v
    cost = got[1]
    if cost:
        WORK[0] -= cost
        if WORK[0] < 0:
            out_of_work()
    return got[0]


def key_texts(key: Callable[[Any], Any], tables: Tables | None = None, tab: Any = None
              ) -> tuple[Callable[[int], str], dict[int, str]]:
    """``key_text(key(c))``, remembered per card for one call of a finder: the rules' key is
    worked out once per card (in the order it was first needed) instead of once per look;
    and the texts found so far. The texts of a key of plain closure values (see
    ``table_of``) are read from its table after the first time, charged as when it was
    called (``tables``: the finders' own, of keys' texts only; ``tab``: the key's table in
    them, when the finder has looked it up already)."""
    texts: dict[int, str] = {}
    if tab is None and tables is not None:
        tab = table_of(key, tables)

    if tab is None:
        def text(c: int) -> str:
            t = texts.get(c)
            if t is None:
                v = key(c)
                t = texts[c] = key_text(v) if type(v) is list else repr(v)  # key_text, inline
            return t
        return text, texts
    get = tab.get

    def tabled(c: int) -> str:
        t = texts.get(c)
        if t is None:
            got = get(c) if type(c) is int else None
            if got is None:
                w = WORK[0]
                v = key(c)
                t = key_text(v) if type(v) is list else repr(v)
                if type(c) is int:
                    tab[c] = (t, w - WORK[0])
            else:
                t, cost = got
                if cost:
                    WORK[0] -= cost
                    if WORK[0] < 0:
                        out_of_work()
            texts[c] = t
        return t

    return tabled, texts


def read_all(fn: Callable[[Any], Any], tab: dict, xs: Any) -> list:
    """``[fn(x) for x in xs]`` with the answers for whole numbers read from ``tab`` (filled by
    ``answer`` where missing), the work each read answer cost charged before anything else is
    worked out and at the end."""
    get = tab.get
    out = []
    owed = 0
    for x in xs:
        got = get(x) if type(x) is int else None
        if got is None:
            if owed:
                charge(owed)
                owed = 0
            out.append(answer(fn, tab, x))
        else:
            out.append(got[0])
            owed += got[1]
    if owed:
        charge(owed)
    return out


def split_wild(cs: Any, wild: Callable[[Any], Any], tables: Tables
               ) -> tuple[list[int], list[int]]:
    """The cards that are not wild and those that are (``wild(c)`` true), in order, with
    ``wild``'s answers read from its table where it has one."""
    nat: list[int] = []
    w: list[int] = []
    tab = table_of(wild, tables)
    if tab is None:
        for c in cs:
            (w if wild(c) else nat).append(c)
        return nat, w
    for c, v in zip(cs, read_all(wild, tab, cs)):
        (w if v else nat).append(c)
    return nat, w


def split_ranks(cs: list, tab: dict[int, tuple[Any, int]] | None, rank: Any
                ) -> tuple[int, dict[Any, list[int]], list[int]] | None:
    """``split_wild``'s answer with the natural cards grouped by ``rank[c]`` (each group in
    order): how many natural cards, their groups, the wild cards; None (nothing charged)
    unless every card's answer is in ``tab`` (the ``wild:`` function's, ``table_of``) and
    every rank can be read, where ``split_wild`` and then the grouping give the same, charged
    the same."""
    if tab is None:
        return None
    get = tab.get
    ranks: dict[Any, list[int]] = {}
    w: list[int] = []
    owed = 0
    try:
        for c in cs:
            got = get(c) if type(c) is int else None
            if got is None:
                return None
            owed += got[1]
            if got[0]:
                w.append(c)
            else:
                ranks.setdefault(rank[c], []).append(c)
    except (IndexError, TypeError):
        return None
    if owed:
        charge(owed)
    return len(cs) - len(w), ranks, w


# (a lambda loop's site, its closure values) -> {card id: (key, work it cost)}: ``keyed``'s
_KEYS: Tables = {}
_KEYED_LAST: list = [None, None, None, None]  # its last site, list, what it held, table


def keyed(xs: list, site: object, vals: tuple, fn: Callable[[Any], Any]) -> list:
    """``[fn(x) for x in xs]``, the keys of a ``sort``/``group_by``/``lowest``/``highest``
    of a written-out lambda whose body reads nothing but its item's attributes and the
    values ``vals`` (numbers, texts, lists of them: ``c -> (if c.rank in w then 0 else
    1)``): as ``table_of``'s, its answers for a whole number (a card: the body reads it from
    the deck's tables, else fails) are remembered per ``site`` and values, each with the
    work it cost, charged again when read (keys are only compared: none is handed on)."""
    last = _KEYED_LAST  # the last call's site and one list, unchanged (as table_of's)
    if last[0] is site and len(vals) == 1 and vals[0] is last[1] and vals[0] == last[2]:
        return read_all(fn, last[3], xs)
    frozen = []
    for v in vals:
        f = _frozen(v)
        if f is None:  # a record, a group...: no table
            return [fn(x) for x in xs]
        frozen.append(f)
    key = (site, tuple(frozen))
    tab = _KEYS.get(key)
    if tab is None:
        if len(_KEYS) >= _MAX_TABLES:
            _KEYS.clear()
        tab = _KEYS[key] = {}
    if len(vals) == 1 and frozen[0][0] is list:
        last[:] = [site, vals[0], list(vals[0]), tab]
    return read_all(fn, tab, xs)
