"""One loop for an action's last argument filtered from a zone and its ``when``.

A listing lists an argument such as ``c: "[c for c in hand[me] if playable(c)]"`` with a
``when`` on ``c`` by building the filtered list, charging its length, then looping over it
to test the ``when``. Where the ``when`` can neither fail nor charge work (comparisons of
cards' attributes, globals, constants), the two loops are one: each card of the zone is
filtered and tested in turn, its entry added at once, and the filtered cards are counted and
charged after the loop. Whatever the filter does (fail, charge, run out of work) happens in
the same order as before, and the ``when`` does nothing a rules writer can see, so the
entries, errors, their places and the work counted are the same.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from .hoist import UNSET

# comparisons that no value the rules make can fail
_SAFE_OPS = (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)


def zone_filter(opts: str) -> tuple[str, str, list[str], str] | None:
    """``(zone, span, conditions, variable)`` of options written as
    ``[v for v in _work(S.zones[...], span) if ...]`` (each condition's source), or None."""
    try:
        tree = ast.parse(opts.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(tree, ast.ListComp) or len(tree.generators) != 1:
        return None
    gen = tree.generators[0]
    if (gen.is_async or not isinstance(gen.target, ast.Name)
            or not isinstance(tree.elt, ast.Name) or tree.elt.id != gen.target.id):
        return None
    it = gen.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "_work"
            and len(it.args) == 2 and not it.keywords and _is_zone(it.args[0])
            and isinstance(it.args[1], ast.Name)):
        return None
    conds = [ast.get_source_segment(opts.strip(), c) for c in gen.ifs]
    zone = ast.get_source_segment(opts.strip(), it.args[0])
    if zone is None or any(c is None for c in conds):
        return None
    return zone, it.args[1].id, [c for c in conds if c is not None], gen.target.id


def _is_zone(n: ast.AST) -> bool:
    """Whether ``n`` reads a zone: ``S.zones[...]`` (whose items are cards)."""
    return (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Attribute)
            and n.value.attr == "zones" and isinstance(n.value.value, ast.Name)
            and n.value.value.id == "S")


def quiet_test(src: str, slot: int, ns: dict[str, Any]) -> bool:
    """Whether the test ``src`` can neither fail nor charge work: made of ``and``/``or``/
    ``not``, equality comparisons, constants, locals, frame slots and globals read by a fixed
    index, the state's attributes, and attribute tables (tuples) indexed by the card in
    frame slot ``slot`` (``F[slot]`` or its local ``_v<slot>``)."""
    try:
        tree = ast.parse(src.strip(), mode="eval").body
    except SyntaxError:
        return False
    return _quiet(tree, slot, ns)


def _quiet(n: ast.AST, card: int, ns: dict[str, Any]) -> bool:
    if isinstance(n, ast.BoolOp):
        return all(_quiet(v, card, ns) for v in n.values)
    if isinstance(n, ast.UnaryOp):
        return isinstance(n.op, ast.Not) and _quiet(n.operand, card, ns)
    if isinstance(n, ast.Compare):
        return (all(isinstance(op, _SAFE_OPS) for op in n.ops)
                and all(_quiet(v, card, ns) for v in (n.left, *n.comparators)))
    if isinstance(n, ast.Constant):
        return n.value is None or type(n.value) in (bool, int, str)
    if isinstance(n, ast.Name):
        return n.id.startswith("_v") or (n.id.startswith("_k") and n.id in ns)
    if isinstance(n, ast.Attribute):  # the state's own fields
        return isinstance(n.value, ast.Name) and n.value.id == "S"
    if isinstance(n, ast.Subscript):
        v, i = n.value, n.slice
        if isinstance(v, ast.Name) and isinstance(ns.get(v.id), tuple):
            return _is_slot(i, card)  # a card's attribute
        if isinstance(i, ast.Constant) and type(i.value) is int and i.value >= 0:
            # a frame slot, or a global by its fixed index
            return ((isinstance(v, ast.Name) and v.id == "F")
                    or (isinstance(v, ast.Attribute) and v.attr == "g"
                        and isinstance(v.value, ast.Name) and v.value.id == "S"))
    return False


def _is_slot(n: ast.AST, slot: int) -> bool:
    """Whether ``n`` reads frame slot ``slot``: ``F[slot]`` or its local ``_v<slot>``."""
    if isinstance(n, ast.Name):
        return n.id == f"_v{slot}"
    return (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == "F"
            and isinstance(n.slice, ast.Constant) and n.slice.value == slot)


# a listing's options that start by unmaking their hoisted calls' slots (hoist.py)
FILLS = re.compile(r"\(((?:F\.__setitem__\(\d+, _k\d+\) or )+)")
_FILL = re.compile(r"F\.__setitem__\((\d+), (_k\d+)\) or ")
_RESET = re.compile(r"F\[(\d+)\] = (_k\d+)")


def filter_key(raw: str, ns: dict[str, Any]) -> tuple | None:
    """What options written as ``[v for v in _work(zone, span) if cond]`` compute, as
    ``any_key`` gives it for ``any(cond for v in zone)``: equal keys test the same condition
    on the same zone's cards (``shared_any``); None where it cannot be told."""
    m = FILLS.match(raw)
    slots: set[str] = set()
    if m is not None:
        for h, k in _FILL.findall(m.group(1)):
            if ns.get(k) is not UNSET:
                return None  # a let's value, not a hoisted call's slot
            slots.add(h)
        raw = "(" + raw[m.end():]
    zf = zone_filter(raw)
    if zf is None or len(zf[2]) != 1:
        return None
    zone, _span, conds, var = zf
    return _key(zone, conds[0], r"\b" + re.escape(var) + r"\b", frozenset(slots))


def any_key(parts: tuple, ns: dict[str, Any]) -> tuple | None:
    """The key (``filter_key``) of an ``any`` compiled as ``cond_lines`` parts, or None."""
    name, slot, it, cond, elt, _span, resets = parts
    if name != "any" or cond is not None or not isinstance(getattr(elt, "src", None), str):
        return None
    slots = set()
    for r in resets:
        m = _RESET.fullmatch(r)
        if m is None or ns.get(m.group(2)) is not UNSET:
            return None
        slots.add(m.group(1))
    zf = zone_filter(f"[_x for _x in {getattr(it, 'src', '')}]")
    if zf is None:
        return None
    return _key(zf[0], elt.src, r"\bF\[" + str(slot) + r"\]", frozenset(slots))


def _key(zone: str, cond: str, var: str, slots: frozenset[str]) -> tuple | None:
    """``(zone, cond's syntax tree with the card as _card, slots)`` where ``cond`` reads no
    frame slot but the card and its own hoisted calls' (which both forms unmake first) and
    ``zone`` none."""
    if re.search(r"\bF\b|\b_v\d", zone):
        return None
    cond = re.sub(var, "_card", cond)
    used = re.findall(r"\bF\[(\d+)\]|\bF\.__setitem__\((\d+), ", cond)
    if (not {a or b for a, b in used} <= slots
            or re.search(r"\b_v\d|\bF\b(?!\[\d+\]|\.__setitem__\(\d+, )", cond)):
        return None
    try:
        return zone, ast.dump(ast.parse(cond.strip(), mode="eval")), slots
    except SyntaxError:
        return None


def hoist_quiet(conds: list[str], var: str, ns: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The filter's conditions with each part that reads no card and can neither fail nor
    charge (``quiet_test``'s kinds: a global, a comparison of globals and constants) read
    from a local ``_q<n>`` set once before the loop: a listing changes nothing, so each card
    would read the same. ``(assignments, conditions)``; the conditions unchanged where
    nothing is worth it."""
    found: dict[str, str] = {}

    class Lift(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> Any:
            if (isinstance(node, (ast.Compare, ast.Subscript, ast.BoolOp, ast.UnaryOp))
                    and _quiet(node, -1, ns) and not _names(node, var)):
                src = ast.unparse(node)
                name = found.setdefault(src, f"_q{len(found)}")
                return ast.Name(id=name, ctx=ast.Load())
            return self.generic_visit(node)

    out = []
    for c in conds:
        try:
            tree = ast.parse(c.strip(), mode="eval")
        except SyntaxError:
            return [], conds
        out.append(ast.unparse(Lift().visit(tree)))
    if not found:
        return [], conds
    return [f"{name} = {src}" for src, name in found.items()], out


def _names(n: ast.AST, var: str) -> bool:
    """Whether ``n`` reads the card ``var``, a local or a frame slot."""
    return any(isinstance(x, ast.Name) and (x.id == var or x.id.startswith("_v") or x.id == "F")
               for x in ast.walk(n))
