"""Compiling calls: built-ins (by their records in ``builtins.BUILTINS``), the state's
built-ins and effects, and meld finders; calls of the rules file's own functions (inlined where
small) are ``usercalls.py``'s.

A mixin of ``compile.Compiler``: the methods here use its ``expr``, ``gen``, ``k`` and ``err``.
"""

from __future__ import annotations

import re
from functools import partial
from itertools import chain
from typing import Any

from . import nodes as N
from .builtins import (
    BUILTINS,
    EXTREME_OF,
    KNOWN_KWARGS,
    Builtin,
    bottom_of_zone,
    top_of_zone,
)
from .cardgroups import PICK
from .codegen import Src, fn_of, src_of
from .display import Writer
from .errors import RuntimeRulesError, did_you_mean
from .groups import Group
from .hoist import (
    UNSET,
    invariant_calls,
    keyed,
)
from .lambdaloops import LOOPED, lambda_loop
from .limits import MAX_LOOP as MAX_LOOP  # re-exported: tests name it here
from .melds import meld_funcs
from .runtime import brief, max2, min2
from .scope import (
    Fn,
    Scope,
    elem_of,
    is_scalar,
    result_type,
)
from .scope import one_call as _one_call

# a zone's id that reading cannot fail or charge: a number, or a per-seat zone of the mover
_SEAT_ZONE = re.compile(r"\(?\d+( \+ S\.actor)?\)?$")

# generated source that reads a value and can be read twice alike: a local or constant, a
# number, a global or a counter of the state (``_pick2``)
_REREAD = re.compile(r"-?\d+|[A-Za-z_]\w*|F\[\d+\]|S\.g\[\d+\]"
                     r"|S\.ctr\[\d+\]\[(?:[A-Za-z_]\w*|\d+)\]")
# a zone's number that no value can make fail: a shared zone's, or one of the actor's own
_PLAIN_ZONE = re.compile(r"\(?\d+(?: \+ S\.actor)?\)?")
MAX_UNROLLED = 8  # any/all over at most this many numbers written out: one test each, inline

# named arguments of the state's built-ins that take a function (``suit: c -> ...``)
FN_KWARGS = frozenset({"key", "suit"})


class Calls:
    """The compiler's calls (see the module docstring)."""

    def e_Call(self, n: N.Call, sc: Scope) -> tuple[Fn, str]:
        name = n.func
        sym = self.sym
        if name == "super":
            fn = sc.fn
            sup = sym.functions.get(fn.name + "@super") if fn else None
            if sup is None:
                self.err("super() is only allowed in a function that overrides one it extends",
                         n.span)
                return (lambda S, F: None), "any"
            return self._user_call(n, sup, sc)
        if name in sym.functions:
            return self._user_call(n, sym.functions[name], sc)
        b = BUILTINS.get(name)
        if b is not None:
            if b.meld:
                return self._meld_call(n, b, sc)
            if b.state:
                if b.effect:
                    self.err(f"'{name}' changes the game and can only be used as an effect",
                             n.span)
                if b.setup and not self.setup_calls:
                    self.err(f"{name}() draws at random while the game is set up: it may only "
                             "be used in match.first_dealer", n.span)
                return self._state_call(n, b, sc)
            return self._pure_call(n, b, sc)
        known = chain((k for k in chain(sym.functions, BUILTINS) if "@" not in k),
                      ("super",))  # lazy: see e_Name
        self.err(f"unknown function '{name}'{did_you_mean(name, known)}", n.span)
        return (lambda S, F: None), "any"

    def _check_arity(self, n: N.Call, mn: int, mx: int, allowed_kw: tuple[str, ...]) -> bool:
        k = len(n.args)
        ok = True
        if not mn <= k <= mx:
            want = f"{mn}" if mn == mx else f"{mn} to {mx}"
            self.err(f"{n.func}() takes {want} argument{'s' if mx != 1 else ''}, got {k}", n.span)
            ok = False
        for kw, node in n.kwargs:
            if kw not in allowed_kw:
                extra = f"; it takes {', '.join(allowed_kw)}" if allowed_kw else ""
                self.err(f"{n.func}() has no argument named '{kw}'{extra}", node.span)
                ok = False
        return ok

    def _fn_arg(self, node: N.Node, sc: Scope) -> Fn:
        """A function argument: a lambda, or the name of a one-parameter rules function."""
        if isinstance(node, N.Lambda):
            return self.expr(node, sc)[0]
        if isinstance(node, N.Name) and node.id in self.sym.functions:
            uf = self.sym.functions[node.id]
            if len(uf.params) != 1:
                self.err(f"'{node.id}' takes {len(uf.params)} arguments; a function passed "
                         "here must take one", node.span)
            if sc.fn is not None:
                sc.fn.calls.add(uf.name)
            # (uf.fn as it is when the expression runs: memo wrappers are put on after)
            return lambda S, F: partial(uf.fn, S)  # type: ignore[misc]
        f, t = self.expr(node, sc)
        if t not in ("fn", "any"):
            self.err(f"expected a function like 'x -> ...' here, got {t}", node.span)
        return fn_of(f)

    def _pure_call(self, n: N.Call, b: Builtin, sc: Scope) -> tuple[Fn, str]:
        self._check_arity(n, b.min_args, b.max_args, b.kwargs)
        if (b.name in ("any", "all") and len(n.args) == 1 and not n.kwargs
                and isinstance(n.args[0], N.Comprehension) and len(n.args[0].clauses) == 1):
            return self._any_all(b.name, n.args[0], sc)
        if b.name in LOOPED and (looped := lambda_loop(self, n, b, sc, result_type)):
            return looped
        argfs: list[Fn] = []
        types: list[str] = []
        for i, a in enumerate(n.args):
            kind = b.kinds[i] if i < len(b.kinds) else "x"
            is_fn_name = (isinstance(a, N.Name) and a.id in self.sym.functions
                          and a.id not in sc.slots and i > 0)
            if kind == "f" or isinstance(a, N.Lambda) or is_fn_name:
                argfs.append(self._fn_arg(a, sc))
                types.append("fn")
            else:
                f, t = self.expr(a, sc)
                self._check_kind(b, kind, a, t)
                argfs.append(f)
                types.append(t)
        kwfs = {}
        for k, a in n.kwargs:
            kwfs[k] = self._fn_arg(a, sc) if k == "key" else self.expr(a, sc)[0]
        impl = b.impl
        ret = result_type(b, types)
        if (b.name in ("sum", "max", "min") and len(argfs) == 1 and not kwfs
                and isinstance(n.args[0], N.Comprehension)):
            # a comprehension gives a list and has paid for its loop: no checks needed
            pick = sum if b.name == "sum" else EXTREME_OF[b.name]
            sums = getattr(argfs[0], "sums", None)
            if sums is not None and b.name != "sum":
                # sums by groups of cards picked from where they are summed: whole numbers,
                # nothing to charge; the loops as written where card_sums gives them back
                call, loops, inline = sums
                chosen = self.k(max if b.name == "max" else min)
                out = self.gen(f"({call.replace(PICK, chosen)} or ({self.k(pick)}({{0}}),))[0]",
                               loops)
                out.sums = ("inline", (*inline, chosen)) if inline is not None else None
                return out, ret
            return self.gen(f"{self.k(pick)}({{0}})", *argfs), ret
        if (b.name in ("max", "min") and len(argfs) > 1 and not kwfs
                and all(t in ("int", "num") for t in types)):
            # numbers only: nothing to charge (compared() charges lists and texts), and
            # Python's own max/min pick the same one (the first of equals)
            if len(argfs) == 2:
                return self._pick2(b.name, argfs), ret
            return self._call_src(self.k(min if b.name == "min" else max), argfs, {}), ret
        if b.name == "text":  # each argument written by its type (display.Writer)
            impl = Writer([f"global:{a.id}" if t == "any" and isinstance(a, N.Name)
                           and a.id in self.sym.globals and a.id not in sc.slots else t
                           for a, t in zip(n.args, types)], self.sym.card_name)
            self.text_writers.append(impl)  # globals' types: known at the end (build.py)
        if (b.name in ("top", "first", "bottom") and len(argfs) == 1
                and isinstance(argfs[0], Src)
                and (_one_call(argfs[0].src, "S.zones[", "[]")
                     or isinstance(n.args[0], (N.Comprehension, N.ListLit)))):
            # a zone, or a list just made: a list, taken without _top's (_bottom's) checks
            end = bottom_of_zone if b.name == "bottom" else top_of_zone
            return self.gen(f"{self.k(end)}({{0}})", *argfs), ret
        if b.name == "size" and len(argfs) == 1 and types[0].startswith("list"):
            a = argfs[0]
            if isinstance(a, Src) and _one_call(a.src, "S.group_list("):
                # a zone of groups counted without making the groups (the same charge)
                return Src("S.group_count(" + a.src[len("S.group_list("):], self.cg,
                           a.depth + 1), ret
            return self.gen("len({0})", *argfs), ret
        if (b.name == "combinations" and len(argfs) == 2 and isinstance(argfs[0], Src)
                and _one_call(argfs[0].src, "S.zones[", "[]")):
            argfs.append(self.lit("True"))  # a zone's cards: no list looked for (builtins.py)
        kept = self._keyed.pop(id(n), None) if self._keyed else None
        if kept is not None and not kwfs and is_scalar(types[kept[1]]):  # hoist.keyed
            parts = ", ".join("{" + str(i) + "}" for i in range(len(argfs)))
            return self.gen(f"{self.k(keyed)}(F, {kept[0]}, {kept[1]}, {self.k(impl)}, "
                            + parts + ")", *argfs), ret
        return self._call_src(self.k(impl), argfs, kwfs), ret

    def _pick2(self, name: str, argfs: list[Fn]) -> Src:
        """``min(a, b)``/``max(a, b)`` of two numbers as Python's own picks (``b`` only where
        it is less, greater): written out where both are reads that can be made twice (a
        local, a constant, a global or counter of the state), else a call of ``pick2``'s
        function, which costs a third of the built-in's (its arguments made into a tuple)."""
        op = "<" if name == "min" else ">"
        srcs = [src_of(f, self.cg)[0] if isinstance(f, Src) else None for f in argfs]
        if all(x is not None and _REREAD.fullmatch(x) for x in srcs):
            return self.gen(f"({{1}} if {{1}} {op} {{0}} else {{0}})", *argfs)
        return self._call_src(self.k(min2 if name == "min" else max2), argfs, {})

    def _call_src(self, func: str, argfs: list[Fn], kwfs: dict[str, Fn]) -> Src:
        """``func(args..., key=value...)`` with the arguments' source spliced in."""
        parts = ["{" + str(i) + "}" for i in range(len(argfs))]
        # only the built-ins' own argument names reach the source (the checker reported others)
        kws = [k for k in kwfs if k in KNOWN_KWARGS]
        parts += [f"{kw}={{{len(argfs) + i}}}" for i, kw in enumerate(kws)]
        return self.gen(func + "(" + ", ".join(parts) + ")", *argfs, *[kwfs[k] for k in kws])

    def _check_kind(self, b: Builtin, kind: str, node: N.Node, t: str) -> None:
        """An argument of a kind the built-in's record does not take is an error."""
        if kind == "l" and t in ("int", "num", "bool", "card", "seat", "none", "str"):
            self.err(f"{b.name}() needs a list or a zone, not {t}", node.span)

    def _meld_call(self, n: N.Call, b: Builtin, sc: Scope) -> tuple[Fn, str]:
        self._check_arity(n, b.min_args, b.max_args, b.kwargs)
        if not hasattr(self, "_melds"):
            sym = self.sym
            self._melds = meld_funcs(sym.card_rank, sym.card_suit, sym.card_order,
                                      sym.card_name, len(set(sym.card_rank)))
        impl = self._melds[n.func]
        argfs = []
        for i, a in enumerate(n.args[:b.max_args]):
            f, t = self.expr(a, sc)
            self._check_kind(b, b.kinds[i], a, t)
            argfs.append(f)
        ret = b.ret
        kwfs = {k: (self._fn_arg(a, sc) if k in ("wild", "key") else self.expr(a, sc)[0])
                for k, a in n.kwargs}
        for k, a in n.kwargs:
            if k == "ace" and not (isinstance(a, N.Const) and a.value in ("low", "high", "both")):
                self.err("ace: takes 'low', 'high' or 'both'", a.span)
            if k == "suited" and isinstance(a, N.Const) and not isinstance(a.value, bool):
                self.err("suited: takes true or false", a.span)
        return self._call_src(self.k(impl), argfs, kwfs), ret

    def _any_all(self, name: str, comp: N.Comprehension, sc: Scope) -> tuple[Fn, str]:
        """any(e for x in xs if c) / all(...) that stop at the first answer. Calls that do not
        depend on ``x`` are made once per pass, as in any comprehension (hoist.py)."""
        saved = dict(sc.slots), dict(sc.types)
        var, it, cond = comp.clauses[0]
        span = self.k(comp.span)
        if (cond is None and isinstance(it, N.ListLit) and 0 < len(it.items) <= MAX_UNROLLED
                and all(isinstance(x, N.Const) and type(x.value) is int and
                        0 <= x.value < 10**15 for x in it.items)
                and not invariant_calls(comp)):
            try:
                return self._any_all_unrolled(name, comp, sc, span)
            finally:
                sc.slots, sc.types = saved
        itf, itt, seats = self._loop(it, sc, span)
        slot = sc.new_slot(var, elem_of(itt))
        if seats:
            sc.sure.add(slot)
        hoisted = [(id(c), sc.new_slot(f"@hoisted{id(c)}")) for c in invariant_calls(comp)
                   if id(c) not in self._hoisted]
        self._hoists_used.difference_update(h for _k, h in hoisted)  # slots are reused
        self._hoisted.update(hoisted)
        self._comp_hoists.append(hoisted)
        try:
            condf = self.expr(cond, sc)[0] if cond is not None else None
            elt = self.expr(comp.elt, sc)[0]
        finally:
            self._comp_hoists.pop()
            for key, _slot in hoisted:
                self._hoisted.pop(key, None)
        sc.slots, sc.types = saved
        hoisted = [h for h in hoisted if h[1] in self._hoists_used]
        kids = [itf] + ([condf] if condf is not None else []) + [elt]
        cond_src = " if {1}" if condf is not None else ""
        resets = [f"F[{h}] = {self.k(UNSET)}" for _k, h in hoisted]
        out = self.gen("(" + "".join(f"F.__setitem__({h}, {self.k(UNSET)}) or "
                                     for _k, h in hoisted)
                       + f"{name}({{{len(kids) - 1}}} for F[{slot}] in {{0}}{cond_src}))",
                       *kids)
        out = self._localized(out, [slot])  # the generator's variable a local of its own
        out.parts = (name, slot, itf, condf, elt, span, resets)
        return out, "bool"

    def _any_all_unrolled(self, name: str, comp: N.Comprehension, sc: Scope,
                          span: str) -> tuple[Fn, str]:
        """any/all over a few whole numbers written out (``all(h - i in vs for i in [1, 2,
        3, 4])``): the test once per number with the number in place, joined by ``or`` so that
        it stops where the generator would; the list's items charged first, as ``_work``
        charges them when the generator is made. No generator and no list per call."""
        var, it, _cond = comp.clauses[0]
        slot = sc.new_slot(var, "int")
        tests = []
        for x in it.items:  # type: ignore[attr-defined]
            sc.alias[slot] = repr(x.value)
            tests.append(self.expr(comp.elt, sc)[0])
        sc.alias.pop(slot, None)
        n = len(tests)
        if name == "all":  # false at the first false test
            chain_src = "not (" + " or ".join(f"not ({{{i}}})" for i in range(n)) + ")"
        else:  # true at the first true one
            chain_src = "not not (" + " or ".join(f"({{{i}}})" for i in range(n)) + ")"
        return self.gen(f"((WORK.__setitem__(0, WORK[0] - {n}) or WORK[0] >= 0 or "
                        f"_out_of_work({span})) and {chain_src})", *tests), "bool"

    def _zone_arg(self, node: N.Node, sc: Scope) -> tuple[Fn, bool]:
        """A zone argument of an effect: (closure giving the zone id, whether it is per player
        and given without a seat, as in deal(stock, hand, 3))."""
        sym = self.sym
        if isinstance(node, N.Name) and node.id in sym.zones and node.id not in sc.slots:
            zid, per = sym.zones[node.id]
            return self.lit(str(zid)), per
        if (isinstance(node, N.Index) and isinstance(node.obj, N.Name)
                and node.obj.id in sym.zones and node.obj.id not in sc.slots):
            base, per = sym.zones[node.obj.id]
            if not per:
                self.err(f"'{node.obj.id}' is a shared zone; it takes no [seat]", node.span)
            idx, _ = self.expr(node.index, sc)
            return self.gen(f"({base} + {{0}})", idx), False
        f, t = self.expr(node, sc)
        if t in ("group", "any"):
            # id of a zone's list -> the zone it was found to be, checked at each use (a
            # state's zones keep their lists; another state's, or a list since freed, miss)
            found: dict[int, int] = {}

            def group_zone(S: Any, g: Any) -> int:
                if isinstance(g, Group):
                    return g.zid
                if type(g) is list:
                    zones = S.zones
                    zid = found.get(id(g), -1)
                    if 0 <= zid < len(zones) and zones[zid] is g:
                        return zid
                    # a zone passed as a value (a procedure's parameter) is the zone's own
                    # list of cards: that list, not a copy of it, names the zone
                    for zid, cards in enumerate(zones):
                        if cards is g:
                            if len(found) >= 4096:
                                found.clear()
                            found[id(g)] = zid
                            return zid
                    what = ("the groups of a zone of groups, which only its name can stand for"
                            if g and isinstance(g[0], Group) else
                            "a list that is no zone (a copy of one?)")
                else:
                    what = brief(g)
                raise RuntimeRulesError(f"expected a zone or a group on the table here, got "
                                        f"{what}")
            # the value's source spliced in, not a closure called for it
            return self.gen(self.k(group_zone) + "(S, {0})", f), False
        self.err(f"expected a zone here (one of {', '.join(sym.zones)}), got {t}", node.span)
        return (lambda S, F: 0), False

    def _state_call(self, n: N.Call, b: Builtin, sc: Scope) -> tuple[Fn, str]:
        name = n.func
        mx, kinds, ret = b.max_args, b.kinds, b.ret
        self.touch = True
        self._check_arity(n, b.min_args, mx, b.kwargs)
        argfs: list[Fn] = []
        for i, a in enumerate(n.args[:mx]):
            kind = kinds[i]
            if kind == "z":
                f, per = self._zone_arg(a, sc)
                if per and not (name == "deal" and i == 1):
                    self.err(f"'{a.id}' is a zone of each player: write {a.id}[seat]",  # type: ignore[attr-defined]
                             a.span)
                if name == "deal" and i == 1 and not per:
                    self.err("deal() deals to a zone of each player, like deal(stock, hand, 3)",
                             a.span)
                argfs.append(f)
            elif kind == "f":
                argfs.append(self._fn_arg(a, sc))
            elif kind == "n":
                if not isinstance(a, N.Const) or not isinstance(a.value, str):
                    self.err(f"{name}() needs a quoted name, like {name}('draw')", a.span)
                    argfs.append(self.lit("''"))
                else:
                    v = a.value
                    if v not in self.sym.ended_by:
                        self.err(f"'{v}' is not a way the round can end: add it under "
                                 f"round.settle{did_you_mean(v, self.sym.ended_by)}", a.span)
                    argfs.append(self.lit(self.k(v)))
            else:
                f, t = self.expr(a, sc)
                if name == "unmeld" and t not in ("group", "any"):
                    self.err(f"unmeld() takes a group on the table (like melds[me][0]), not {t}",
                             a.span)
                argfs.append(f)
        kwfs = {k: (self._fn_arg(a, sc) if k in FN_KWARGS else self.expr(a, sc)[0])
                for k, a in n.kwargs}
        for k, a in n.kwargs:
            if k == "at" and not (isinstance(a, N.Const) and a.value in ("top", "bottom")):
                self.err("at: takes 'top' or 'bottom'", a.span)
            if k == "face" and not (isinstance(a, N.Const) and a.value in ("up", "down")):
                self.err("face: takes 'up' or 'down'", a.span)
        assert name.isidentifier()  # a key of BUILTINS, never rules text
        if name == "move" and not kwfs and len(argfs) == 2:  # one card, mostly (table.py)
            top = self.k(top_of_zone) + "("
            a, d = (getattr(f, "src", "") for f in argfs)
            if (isinstance(n.args[0], N.Call) and n.args[0].func == "top" and a.startswith(top)
                    and _one_call(a[len(top):-1], "S.zones[", "[]") and _SEAT_ZONE.match(d)):
                # move(top(zone), zone): top()'s charge and the move in one call, the zones
                # read first as before (a place of a zone by the mover: nothing to fail)
                return self._call_src("S.fx_move_top_of", [self.lit(a[len(top):-1]), argfs[1]],
                                      kwfs), ret
            return self._call_src("S.fx_move_top", argfs, kwfs), ret
        if name == "show_none":  # kept only for a bot that keeps what it knows: else no
            # function is made for it (the random players' loop pays one test)
            return self.gen("(S.known is not None and S.fx_show_none({0}, {1}))", *argfs), ret
        return self._call_src("S.fx_" + name, argfs, kwfs), ret
