"""Which action arguments can never offer the same move twice (``ActionDef.distinct``).

With one pack, the legal entries of such arguments always have different move texts, so bots
that only count moves need neither texts nor keys; the entries of any other argument are kept
once per move (``movekeys.drop_repeats``). Worked out from the parsed ``args:`` text when the
game is built: what cannot be proved distinct here is simply checked at run time.
"""

from __future__ import annotations

from typing import Any

from . import nodes as N

# lists of values that are all different, whatever the game: the deck's, the seats
_DISTINCT_NAMES = frozenset({"suits", "ranks", "players"})


def options_distinct(tree: Any, typ: str, zones: dict[str, tuple[int, bool]]) -> bool:
    """Whether an argument's options (``tree``, of element type ``typ``) can hold no value twice:
    cards read from zones each zone once (``hand[me]``, ``up + down``) or a filter of them
    (``[c for c in hand[me] if ...]``), a ``range()``, a list of different constants
    (``['up', 'down']``), the suits, ranks or seats. Anything else may repeat a move."""
    if isinstance(tree, N.Comprehension):
        var, source, _cond = tree.clauses[-1]
        if not isinstance(tree.elt, N.Name) or tree.elt.id != var:
            return False
        if len(tree.clauses) == 1:
            return options_distinct(source, typ, zones)
        # [h for k in range(1, 4) for h in combinations(hand[me], k)]: subsets of different
        # sizes, each size's subsets different; [g for p in players for g in melds[p]]: what
        # lies in the zones of different seats
        outer = tree.clauses[:-1]
        if len(outer) == 1 and isinstance(source, N.Index) and \
                isinstance(source.index, N.Name) and source.index.id == outer[0][0]:
            return options_distinct(outer[0][1], "seat", zones) and \
                _zones_once(source, zones)
        return len(outer) == 1 and isinstance(source, N.Call) and \
            source.func == "combinations" and len(source.args) == 2 and \
            isinstance(source.args[1], N.Name) and source.args[1].id == outer[0][0] and \
            options_distinct(outer[0][1], "int", zones) and \
            _zones_once(source.args[0], zones)
    if typ == "card":
        return _zones_once(tree, zones)
    if isinstance(tree, N.Call) and tree.func == "combinations" and len(tree.args) == 2:
        return typ == "list[card]" and _zones_once(tree.args[0], zones)
    if isinstance(tree, N.Call):
        return tree.func == "range" and not tree.kwargs
    if isinstance(tree, N.ListLit):
        values = [x.value for x in tree.items if isinstance(x, N.Const)]
        return len(values) == len(tree.items) and len({repr(v) for v in values}) == len(values)
    return isinstance(tree, N.Name) and tree.id in _DISTINCT_NAMES and tree.id not in zones


def _zones_once(tree: Any, zones: dict[str, tuple[int, bool]]) -> bool:
    """Whether ``tree`` reads cards from zones, each zone once: then no card is among its
    options twice (each card lies in one zone)."""
    names: list[str] = []

    def read(t: Any) -> bool:
        if isinstance(t, N.BinOp) and t.op == "+":
            return read(t.left) and read(t.right)
        if isinstance(t, N.Index) and isinstance(t.obj, N.Name):
            t = t.obj  # a player's zone: hand[me]
            if not zones.get(t.id, (0, False))[1]:
                return False
        elif not isinstance(t, N.Name) or zones.get(t.id, (0, True))[1]:
            return False
        names.append(t.id)
        return t.id in zones

    return read(tree) and len(names) == len(set(names))
