"""Compiling comprehensions: ``[e for x in xs if c ...]`` to one Python list comprehension over
frame slots, with the work of each loop charged as it is taken (``_loop``), the calls that do not
depend on its variables made once per pass or per item of an outer clause (``hoist.py``), and
two shapes compiled as one pass instead: cards grouped by a constant list of an attribute's
values (``cardgroups.py``), and sums by such groups.

A mixin of ``compile.Compiler``: the methods here use its ``expr``, ``gen``, ``k``, ``lit``,
``err`` and ``_localized``.
"""

from __future__ import annotations

import re

from . import nodes as N
from .builtins import nested
from .cardgroups import attr_reader, card_groups, card_sums_call, grouping
from .codegen import Src
from .hoist import UNSET, clause_invariant_calls, invariant_calls
from .scope import CARD_ATTRS, SEAT_LISTS, Fn, Scope, elem_of, flat_table, is_scalar, work_range
from .scope import one_call as _one_call
from .walks import nested_flat


class Comprehensions:
    """The compiler's comprehensions (see the module docstring)."""

    def e_Comprehension(self, n: N.Comprehension, sc: Scope) -> tuple[Fn, str]:
        saved = dict(sc.slots), dict(sc.types)
        try:
            return self._comprehension(n, sc)
        finally:  # the loop variables end with the comprehension
            sc.slots, sc.types = saved

    def _comprehension(self, n: N.Comprehension, sc: Scope) -> tuple[Fn, str]:
        hoisted = [(id(c), sc.new_slot(f"@hoisted{id(c)}")) for c in invariant_calls(n)
                   if id(c) not in self._hoisted]  # (one made once per listing stays so)
        self._hoists_used.difference_update(slot for _k, slot in hoisted)  # slots are reused
        self._hoisted.update(hoisted)
        self._comp_hoists.append(hoisted)
        try:
            f, t = self._comprehension_loop(n, sc)
        finally:
            self._comp_hoists.pop()
            for key, _slot in hoisted:
                self._hoisted.pop(key, None)
        hoisted = [h for h in hoisted if h[1] in self._hoists_used]
        if not hoisted:
            return f, t
        resets = "".join(f"F.__setitem__({slot}, {self.k(UNSET)}) or " for _k, slot in hoisted)
        return self.gen("(" + resets + "{0})", f), t

    def _comprehension_loop(self, n: N.Comprehension, sc: Scope) -> tuple[Fn, str]:
        if (grouped := self._card_groups(n, sc)) is not None:
            return grouped
        sums = card_sums_call(self, n, sc)  # [sum(t[x.rank] for x in L if x.key == v) for v..]
        kids: list[Fn] = []
        parts = []
        span = self.k(n.span)
        slots = []
        # per clause but the last: the calls made once per its item (hoist.py), each with
        # a slot reset to UNSET as the item is taken (see _clause_resets)
        per_item: list[list[tuple[int, int]]] = []
        for j, (var, it, cond) in enumerate(n.clauses):
            itf, itt, seats = self._loop(it, sc, span)
            slot = sc.new_slot(var, elem_of(itt))
            slots.append(slot)
            if seats:
                sc.sure.add(slot)
            parts.append(f" for F[{slot}] in {{{len(kids)}}}")
            kids.append(itf)
            if cond is not None:
                parts.append(f" if {{{len(kids)}}}")
                kids.append(self.expr(cond, sc)[0])
            if j < len(n.clauses) - 1:
                found = [(id(c), sc.new_slot(f"@hoisted{id(c)}"))
                         for c in clause_invariant_calls(n, j) if id(c) not in self._hoisted]
                self._hoists_used.difference_update(s for _k, s in found)  # slots are reused
                self._hoisted.update(found)
                per_item.append(found)
                parts.append(per_item[-1])  # type: ignore[arg-type]  # (filled in below)
        elt, et = self.expr(n.elt, sc)
        kids.append(elt)
        for found in per_item:
            for key, _s in found:
                self._hoisted.pop(key, None)
        parts = [self._clause_resets(p) if isinstance(p, list) else p for p in parts]
        src = f"[{{{len(kids) - 1}}}" + "".join(parts) + "]"
        # a filter ([x for x in xs if ...]) keeps items of a list that is bounded already
        keeps = (len(n.clauses) == 1 and isinstance(n.elt, N.Name)
                 and n.elt.id == n.clauses[0][0])
        if not is_scalar(et) and not keeps:  # its items may be lists: see nested()
            src = self.k(nested_flat if self._zone_subsets(n, sc) else nested) + "(" + src + ")"
        f = self._localized(self.gen(src, *kids), slots)
        return (sums(f) if sums else f), f"list[{et}]"

    def _card_groups(self, n: N.Comprehension, sc: Scope) -> tuple[Fn, str] | None:
        """``[[x for x in L if x.key == v] for v in V]`` as one pass (cardgroups.py), where
        ``V`` is a constant list of the key's kind of value (texts or whole numbers) and
        ``key`` a card attribute; None to compile it as written."""
        if (found := grouping(n)) is None:
            return None
        _l, key, vs, _x = found
        sym, errors = self.sym, len(self.errors)
        own = key in sym.card_attrs
        ctable = sym.card_attrs[key][0] if own else getattr(sym, "card_" + key, None)
        kind = sym.card_attrs[key][1] if own else CARD_ATTRS.get(key)
        lf, lt = self.expr(n.elt.clauses[0][1], sc)  # type: ignore[attr-defined]
        if isinstance(vs, N.ListLit) and all(isinstance(v, N.Const) for v in vs.items):
            vf = self.lit(self.k([v.value for v in vs.items]))  # type: ignore[attr-defined]
        else:  # (suits, ranks: a constant already)
            vf = self.expr(vs, sc)[0]
        values = vf.ns.ns.get(vf.src) if isinstance(vf, Src) else None
        want = {"str": str, "int": int}.get(kind or "")
        if (len(self.errors) > errors or ctable is None or not flat_table(ctable)
                or elem_of(lt) not in ("any", "card") or type(values) is not list
                or not re.fullmatch(r"_k\d+", vf.src)
                or want is None or any(type(v) is not want for v in values)):
            del self.errors[errors:]  # (the loops as written report them)
            return None
        inner = n.elt.span  # (the inner loop's place, where its charge fails)
        return self.gen(f"{self.k(card_groups)}({{0}}, {{1}}, {self.k(ctable)}, {len(ctable)}, "
                        f"{self.k(attr_reader(key, ctable))}, {self.k(n.span)}, "
                        f"{self.k(inner)})", lf, vf), f"list[list[{elem_of(lt)}]]"

    def _zone_subsets(self, n: N.Comprehension, sc: Scope) -> bool:
        """Whether the comprehension's items are its last variable, which runs over
        ``combinations(z, k)`` of a zone ``z``: lists of cards, none deeper (walks.nested_flat)."""
        var, it, _cond = n.clauses[-1]
        if not (isinstance(n.elt, N.Name) and n.elt.id == var and isinstance(it, N.Call)
                and it.func == "combinations" and it.func not in self.sym.functions
                and len(it.args) == 2 and not it.kwargs):
            return False
        z = it.args[0]
        z = z.obj if isinstance(z, N.Index) else z
        return isinstance(z, N.Name) and z.id in self.sym.zones and z.id not in sc.slots

    def _clause_resets(self, found: list[tuple[int, int]]) -> str:
        """The condition that resets the slots of a clause's per-item calls that were used
        (``F.__setitem__`` gives None: it always holds); nothing where none was."""
        used = [s for _k, s in found if s in self._hoists_used]
        if not used:
            return ""
        unset = self.k(UNSET)
        return " if not (" + " or ".join(f"F.__setitem__({s}, {unset})" for s in used) + ")"

    def _loop(self, it: N.Node, sc: Scope, span: str) -> tuple[Fn, str, bool]:
        """What a comprehension's ``for`` loops over, its work charged (``_work(xs, span)``);
        its type; whether it is a list of the table's seats. ``range(n)`` charged as
        ``_work(range(n))`` would be but made no list (``work_range``; not where the call
        is made once per pass or listing, hoist.py), the seats of the table read as a range."""
        if (isinstance(it, N.Call) and it.func == "range" and len(it.args) == 1
                and not it.kwargs and "range" not in self.sym.functions
                and id(it) not in self._hoisted and id(it) not in self._held):
            arg = self.expr(it.args[0], sc)[0]
            return self.gen(self.k(work_range) + f"({{0}}, {span})", arg), "list[int]", False
        itf, itt = self.expr(it, sc)
        # (seats_from gives seats of the table only, whatever it is given: it fails otherwise)
        seats = isinstance(itf, Src) and (itf.src in SEAT_LISTS
                                          or _one_call(itf.src, "S.fx_seats_from("))
        if seats and itf.src == "list(range(S.n))":
            itf = self.lit("range(S.n)")
        return self.gen(f"_work({{0}}, {span})", itf), itt, seats
