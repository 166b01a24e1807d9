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
# values that ``distinct()`` keeps once each by ``==`` and whose move texts then differ too
# (a number, written as str() writes an int or a finite float; a seat; a card of one pack:
# equal texts only for equal values)
_KEPT_APART = frozenset({"int", "num", "seat", "card"})
MAX_BODIES = 4  # rules functions looked into, one inside another, at most
_LOCAL: dict[str, tuple[int, bool]] = {}  # no zones: names inside a let or a function body


def options_distinct(tree: Any, typ: str, zones: dict[str, tuple[int, bool]],
                     functions: Any = None, depth: int = 0) -> bool:
    """Whether an argument's options (``tree``, of element type ``typ``) can hold no value twice:
    cards read from zones each zone once (``hand[me]``, ``up + down``) or a filter of them
    (``[c for c in hand[me] if ...]``), a ``range()``, a list of different constants
    (``['up', 'down']``), the suits, ranks or seats; a list of one item or none; ``distinct()``
    of numbers, seats or cards, or ``sort()`` of such a list; either branch of ``if``, the body
    of ``let``, and the body of a rules function (``functions``, by name) called for them.
    Anything else may repeat a move. Inside a ``let`` or a function body no name is trusted
    (``zones`` is ``_LOCAL`` there: a local may hide a zone or the seats)."""
    if isinstance(tree, N.IfExpr):
        return options_distinct(tree.then, typ, zones, functions, depth) and \
            options_distinct(tree.orelse, typ, zones, functions, depth)
    if isinstance(tree, N.Let):
        return options_distinct(tree.body, typ, _LOCAL, functions, depth)
    if isinstance(tree, N.ListLit) and len(tree.items) <= 1:
        return True
    if isinstance(tree, N.Call) and functions is not None and tree.func in functions:
        uf = functions[tree.func]
        return (depth < MAX_BODIES and not uf.effect and uf.tree is not None
                and "@" not in tree.func and len(tree.args) == len(uf.params)
                and not tree.kwargs
                and options_distinct(uf.tree, typ, _LOCAL, functions, depth + 1))
    if isinstance(tree, N.Call) and len(tree.args) == 1 and not tree.kwargs and \
            tree.func == "distinct":
        return typ in _KEPT_APART
    if isinstance(tree, N.Call) and tree.args and tree.func == "sort":
        return options_distinct(tree.args[0], typ, zones, functions, depth)
    if zones is _LOCAL and isinstance(tree, N.Name):
        return False  # a local or a parameter: any list
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
