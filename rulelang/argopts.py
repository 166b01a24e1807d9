"""Which action arguments can never offer the same move twice (``ActionDef.distinct``).

With one pack, the legal entries of such arguments always have different move texts, so bots
that only count moves need neither texts nor keys; the entries of any other argument are kept
once per move (``movekeys.drop_repeats``). Worked out from the parsed ``args:`` text when the
game is built: what cannot be proved distinct here is simply checked at run time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import nodes as N
from .movetext import canon_move

# lists of values that are all different, whatever the game: the deck's, the seats
_DISTINCT_NAMES = frozenset({"suits", "ranks", "players"})
# meld finders: their sets and runs are deduplicated (no two hold the same cards)
_FINDERS = frozenset({"sets", "runs"})
# rules functions, lets and branches looked through at most (a bound on the walk)
_MAX_DEPTH = 24


@dataclass
class Known:
    """What the proof may look into beyond the argument's text: the rules file's functions
    (``UserFn``, with their parsed bodies) and the deck's values of each card attribute
    (``rank``/``suit``: one per card)."""

    functions: dict[str, Any]
    attrs: dict[str, tuple]


def _shadowed(tree: Any, env: dict[str, Any], zones: dict[str, tuple[int, bool]]) -> bool:
    """Whether ``tree`` names a parameter or ``let`` that hides a zone or the seats (the
    checks would take it for them); a parameter read otherwise (``hand[p]``) is harmless."""
    return any(isinstance(n, N.Name) and n.id in env and (n.id in zones
                                                          or n.id in _DISTINCT_NAMES)
               for n in N.walk(tree))


def _words_of_cards(tree: Any, known: Known, zones: dict[str, tuple[int, bool]],
                    env: dict[str, Any]) -> bool:
    """Whether ``tree`` is ``[c.rank for c in ZONES]`` (or another attribute every card has)
    over cards read from zones, the deck's values of that attribute being one word each and
    different as move words (``canon_move``): ``distinct`` of it then gives different moves."""
    if not (isinstance(tree, N.Comprehension) and len(tree.clauses) == 1):
        return False
    var, source, _cond = tree.clauses[0]
    elt = tree.elt
    if not (isinstance(elt, N.Attr) and isinstance(elt.obj, N.Name) and elt.obj.id == var
            and elt.name in known.attrs):
        return False
    if _shadowed(source, env, zones) or not _zones_once(source, zones):
        return False
    values = set(known.attrs[elt.name])
    if not all(type(v) is str and v and not any(ch.isspace() for ch in v) for v in values):
        return False
    return len({canon_move(v) for v in values}) == len(values)


def options_distinct(tree: Any, typ: str, zones: dict[str, tuple[int, bool]],
                     known: Known | None = None, env: dict[str, Any] | None = None,
                     depth: int = 0) -> bool:
    """Whether an argument's options (``tree``, of element type ``typ``) can hold no value twice:
    cards read from zones each zone once (``hand[me]``, ``up + down``) or a filter of them
    (``[c for c in hand[me] if ...]``), a ``range()``, a list of different constants
    (``['up', 'down']``), the suits, ranks or seats; with ``known`` (``Known``), also either
    branch of an ``if`` that is, a ``let``'s body, the body of a rules function that is, the
    sets and runs of a meld finder, and ``distinct(...)`` of seats, numbers or one attribute of
    the cards of a zone whose values are different words. Anything else may repeat a move.
    ``env``: the names bound by ``let``s (their value and its own ``env``) and function
    parameters (None: not looked into) on the way."""
    env = env or {}
    if isinstance(tree, N.Name) and tree.id in env:  # a let's value, or a parameter
        bound = env[tree.id]
        return bound is not None and depth < _MAX_DEPTH and \
            options_distinct(bound[0], typ, zones, known, bound[1], depth + 1)
    if known is not None and depth < _MAX_DEPTH:
        if isinstance(tree, N.ListLit) and len(tree.items) <= 1:
            return True  # one option or none (``else []``)
        if isinstance(tree, N.Call) and tree.func == "sort" and tree.args:
            return options_distinct(tree.args[0], typ, zones, known, env, depth + 1)
        if isinstance(tree, N.IfExpr):
            return options_distinct(tree.then, typ, zones, known, env, depth + 1) and \
                options_distinct(tree.orelse, typ, zones, known, env, depth + 1)
        if isinstance(tree, N.Let):
            inner = {**env, tree.name: (tree.value, env)}
            return options_distinct(tree.body, typ, zones, known, inner, depth + 1)
        if isinstance(tree, N.Call) and tree.func in known.functions:
            uf = known.functions[tree.func]
            if uf.effect or uf.tree is None or len(tree.args) != len(uf.params) or tree.kwargs:
                return False
            # the body reads its parameters only: their values are not looked into
            return options_distinct(uf.tree, typ, zones, known, dict.fromkeys(uf.params),
                                    depth + 1)
        if isinstance(tree, N.Call) and tree.func in _FINDERS and typ == "list[card]":
            return True  # deduplicated by the finder (melds.dedupe): different card sets
        if isinstance(tree, N.Call) and tree.func == "distinct" and len(tree.args) == 1 \
                and not tree.kwargs:
            # kept once each by ==, and then with different texts (a number as str() writes
            # it; a seat; a card of one pack)
            return typ in ("seat", "int", "num", "card") or \
                _words_of_cards(tree.args[0], known, zones, env)
    if env and _shadowed(tree, env, zones):
        return False  # a name the checks below would take for a zone or the seats
    if isinstance(tree, N.Comprehension):
        var, source, _cond = tree.clauses[-1]
        if not isinstance(tree.elt, N.Name) or tree.elt.id != var:
            return False
        if len(tree.clauses) == 1:
            return options_distinct(source, typ, zones, known, env, depth + 1)
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
