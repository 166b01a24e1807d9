"""A listing's filter of a zone's cards read from a table by card, one per set of values.

An action whose argument is one card of a zone that passes a test (``c: "[c for c in
hand[me] if playable(c)]"``, listed in one loop by ``listloop``) tests every card of the
zone at every listing. Where the test reads nothing but the card's attributes (tables by card
id), constants, values worked out once before the loop (``listloop.hoist_quiet``'s ``_q``
locals) and hoisted calls (``hoist.py``'s slots, filled the first time a card reaches them),
and can neither fail nor charge work apart from those calls, its answer for a card depends
on those values alone: a tuple by card id, worked out once per set of values and kept
(``card_table``), answers it with one index.

The hoisted calls are made before the loop, in order. A call the test would not have made
(no card of the zone reaches it: the table keeps, per call, the cards whose test reaches it)
has its work given back after the loop, so the work counted is the test's. Where a call
fails (an error, or the step's work running out: making every call charges at least what
the test's calls would have by then), the work is set back and the test runs as it did,
card by card, and fails where it did. So the cards kept, the work counted and the errors are
the same as the test's.

Where the test reads the card alone, the table is a constant, worked out when the game is
compiled (always used). Tables keyed by values read at run time are off (``KEYED``): measured
on a bundled game whose cards are played onto the discard's top card, fewer instructions but
slower.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from .hoist import UNSET

ENABLED = True  # (tests compare the games played with it off)
# tables keyed by values worked out at run time (a dict lookup of a tuple a listing, the
# reached calls by frozenset.isdisjoint): off, measured: a bundled game's listing by them took
# ~1,900 instructions less a decision but ~90 instruction-cache misses more (C paths the
# loop did not use), and its CPU rate against OpenSpiel was lower with them (0.44-0.45 against
# 0.46; docs/performance.md). A filter of the card alone (a constant table) is always used.
KEYED = False
# keys kept per filter before its tables are forgotten (values no game has few of)
MAX_TABLES = 4096
_CARD = "_c"
_REACHED: list[int] = []  # the calls the card being tabled reaches (table_maker)


def reach(call: int, value: Any) -> Any:
    """A hoisted call's value in a test being tabled, noting that the card reaches it."""
    _REACHED.append(call)
    return value


def card_table(cache: dict, build: Callable[[tuple], tuple], key: tuple) -> tuple:
    """The table of ``key``'s values, made by ``build`` the first time."""
    t = cache.get(key)
    if t is None:
        if len(cache) >= MAX_TABLES:
            cache.clear()
        t = cache[key] = build(key)
    return t


def table_maker(test: Callable[..., Any], ncards: int, ncalls: int) -> Callable[[tuple], tuple]:
    """``build(key)``: ``(answers, reached...)``: ``test(card, *key)`` for every card id as
    True/False, then per hoisted call the cards whose test reaches it (a frozenset)."""
    def build(key: tuple) -> tuple:
        out: list[bool] = []
        reached: list[set[int]] = [set() for _ in range(ncalls)]
        for c in range(ncards):
            _REACHED.clear()
            out.append(True if test(c, *key) else False)
            for i in _REACHED:
                reached[i].add(c)
        return (tuple(out), *(frozenset(r) for r in reached))
    return build


class Plan:
    """What a filter's table needs: the locals its values are (``keys``), the hoisted calls'
    slots with the source that fills each (``fills``, numbered from 0 in that order), the
    test over them (``test``: source of a ``def``) and the number of card ids."""

    def __init__(self, keys: list[str], fills: list[tuple[str, str]], test: list[str],
                 ncards: int) -> None:
        self.keys, self.fills, self.test, self.ncards = keys, fills, test, ncards


def plan(conds: list[str], card: str, ns: dict[str, Any], reach_name: str) -> Plan | None:
    """The table's plan for the filter ``conds`` (all must hold) on the card read as ``card``
    (``F[3]``), or None where the test is not of the kinds above; ``reach_name``: the
    generated code's name for ``reach``."""
    if not ENABLED:
        return None
    try:
        trees = [ast.parse(c.strip(), mode="eval").body for c in conds]
        card_tree = ast.dump(ast.parse(card, mode="eval").body)
    except SyntaxError:
        return None
    w = _Walk(card_tree, ns, reach_name)
    new = [w.visit(t) for t in trees]
    if w.bad or not w.sizes or len(set(w.sizes)) != 1 or not conds:
        return None
    body = new[0] if len(new) == 1 else ast.BoolOp(op=ast.And(), values=new)
    src = ast.unparse(ast.fix_missing_locations(body))
    lines = [f"def _cardtest({', '.join([_CARD, *w.keys])}):", f"    return {src}"]
    return Plan(w.keys, w.fills, lines, w.sizes[0])


class _Walk(ast.NodeTransformer):
    """Checks a test's kinds, finds its values and hoisted calls, and writes the calls as
    ``reach(i, slot)``."""

    def __init__(self, card: str, ns: dict[str, Any], reach_name: str) -> None:
        self.card, self.ns, self.reach = card, ns, reach_name
        self.keys: list[str] = []
        self.fills: list[tuple[str, str]] = []
        self.sizes: list[int] = []
        self.bad = False

    def _key(self, name: str) -> None:
        if name not in self.keys:
            self.keys.append(name)

    def visit(self, node: ast.AST) -> Any:
        if self.bad:
            return node
        if ast.dump(node) == self.card:
            return ast.Name(id=_CARD, ctx=ast.Load())
        fill = self._fill(node)
        if fill is not None:
            return fill
        if isinstance(node, (ast.expr_context, ast.boolop, ast.cmpop, ast.unaryop)):
            return node
        if isinstance(node, (ast.BoolOp, ast.IfExp)):
            return self.generic_visit(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.generic_visit(node)
        if isinstance(node, ast.Compare):
            # ==/!= answer alike for equal values (the tables' keys); ``is`` only with None
            for op, (a, b) in zip(node.ops, zip([node.left, *node.comparators],
                                                node.comparators)):
                if isinstance(op, (ast.Is, ast.IsNot)):
                    if not any(isinstance(x, ast.Constant) and x.value is None for x in (a, b)):
                        self.bad = True
                elif not isinstance(op, (ast.Eq, ast.NotEq)):
                    self.bad = True
            return self.generic_visit(node)
        if isinstance(node, ast.Constant):
            self.bad |= not (node.value is None or type(node.value) in (bool, int, str))
            return node
        if isinstance(node, ast.Name):
            if node.id.startswith("_k") and node.id in self.ns:
                self.bad |= self.ns[node.id] is UNSET
            elif node.id.startswith(("_q", "_v")) and node.id[2:].isdigit():
                self._key(node.id)
            else:
                self.bad = True
            return node
        if isinstance(node, ast.Subscript):  # a card's attribute: a table by card id
            table = self.ns.get(node.value.id) if isinstance(node.value, ast.Name) else None
            if (isinstance(table, tuple) and node.value.id.startswith("_k")
                    and ast.dump(node.slice) == self.card):
                self.sizes.append(len(table))
                return ast.Subscript(value=node.value, slice=ast.Name(id=_CARD, ctx=ast.Load()),
                                     ctx=ast.Load())
        self.bad = True
        return node

    def _fill(self, node: ast.AST) -> ast.AST | None:
        """``(_v1 if _v1 is not UNSET else (_v1 := CALL) or _v1)``, a hoisted call's slot
        (hoist.py, as ``flowgen._hoisted_locals`` writes it), as ``reach(i, _v1)``; None for
        anything else."""
        if not (isinstance(node, ast.IfExp) and isinstance(node.body, ast.Name)
                and isinstance(node.test, ast.Compare) and len(node.test.ops) == 1
                and isinstance(node.test.ops[0], ast.IsNot)):
            return None
        v, t, o = node.body.id, node.test, node.orelse
        if not (isinstance(t.left, ast.Name) and t.left.id == v
                and isinstance(t.comparators[0], ast.Name)
                and self.ns.get(t.comparators[0].id) is UNSET
                and isinstance(o, ast.BoolOp) and isinstance(o.op, ast.Or) and len(o.values) == 2
                and isinstance(o.values[0], ast.NamedExpr) and o.values[0].target.id == v
                and isinstance(o.values[1], ast.Name) and o.values[1].id == v):
            return None
        call = o.values[0].value
        if any(isinstance(x, (ast.NamedExpr, ast.Lambda, ast.ListComp, ast.GeneratorExp))
               or (isinstance(x, ast.Name) and x.id.startswith("_v"))
               or ast.dump(x) == self.card for x in ast.walk(call)):
            self.bad = True
            return node
        src = ast.unparse(call)
        names = [f for f, _s in self.fills]
        if v in names:
            if self.fills[names.index(v)][1] != src:
                self.bad = True
        else:
            self.fills.append((v, src))
        self._key(v)
        i = [f for f, _s in self.fills].index(v)
        return ast.Call(func=ast.Name(id=self.reach, ctx=ast.Load()),
                        args=[ast.Constant(i), ast.Name(id=v, ctx=ast.Load())], keywords=[])


def tops_written_out(src: str, top: str | None, name: str) -> tuple[list[str], str]:
    """A hoisted call's source with each ``top(zone)`` that it always makes (read only
    through items: ``_k1[top(z)]``) made by statements before it (``builtins.top_of_zone``
    written out, a Python call less): ``(statements, source)``. Only for the calls made
    before a filter's loop, which are made again, as before, where any of them fails: the
    order of a call's parts cannot change what it charges in all."""
    if top is None or top + "(" not in src:
        return [], src
    tree = ast.parse(src, mode="eval")
    node: Any = tree.body
    while isinstance(node, ast.Subscript) and not _is_top(node.slice, top):
        node = node.value
    if not isinstance(node, ast.Subscript):
        return [], src
    z = ast.unparse(node.slice.args[0])  # type: ignore[attr-defined]
    node.slice = ast.Name(id=name, ctx=ast.Load())
    return ([f"{name} = {z}", f"WORK[0] -= len({name})", "if WORK[0] < 0:",
             "    _out_of_work()", f"{name} = {name}[0] if {name} else None"],
            ast.unparse(tree))


def _is_top(n: ast.AST, top: str) -> bool:
    return (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == top
            and len(n.args) == 1 and not n.keywords)
