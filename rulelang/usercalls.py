"""Compiling calls of the rules file's own functions: a call of the installed function (bound once
every function is compiled), a small function inlined into its caller (its parameters in the
caller's frame slots), a call that several actions' ``when``s make alike kept once per listing
(``hoist.SharedCalls``), and the calls of an action's ``when`` that no argument changes held
for the listing (``hoist.held_again``).

A mixin of ``compile.Compiler``: the methods here use its ``expr``, ``gen``, ``k``, ``lit``,
``err`` and ``_call_src`` (``calls.py``).
"""

from __future__ import annotations

from typing import Any

from . import nodes as N
from .codegen import Src, src_of
from .hoist import (
    held_again,
    hoist_inlined,
    plain_src,
    unhoist,
    variant_params,
    when_invariant_calls,
)
from .limits import MAX_INLINE, MAX_INLINE_BODY, MAX_INLINE_SRC
from .operators import NOT_CONST, const_of
from .scope import ALIASED, Fn, Scope, UserFn, is_local, slot_of


class UserCalls:
    """The compiler's calls of rules functions (see the module docstring)."""

    def _user_call(self, n: N.Call, uf: UserFn, sc: Scope) -> tuple[Fn, str]:
        if n.kwargs:
            self.err(f"{n.func}() takes no named arguments", n.kwargs[0][1].span)
        if len(n.args) != len(uf.params):
            self.err(f"{n.func}() takes {len(uf.params)} argument"
                     f"{'s' if len(uf.params) != 1 else ''} ({', '.join(uf.params)}), "
                     f"got {len(n.args)}", n.span)
        if sc.fn is not None:
            sc.fn.calls.add(uf.name)
        compiled = [self.expr(a, sc) for a in n.args][: len(uf.params)]
        argfs = [f for f, _t in compiled]
        if uf.effect and not getattr(self, "_in_stmt", False):
            self.err(f"'{uf.name}' is a procedure (it changes the game); call it as an effect",
                     n.span)
        out = self._inline(uf, argfs, sc, [t for _f, t in compiled], n)
        if out is None and self.functions_final and uf.fn is not None and (
                not uf.effect or getattr(self, "procedures_final", True)):
            out = self._call_src(self.k(uf.fn), [self.lit("S"), *argfs], {})
        elif out is None:
            # uf.fn is looked up at each call: installed (and maybe memoised) after compiling
            out = self._call_src(self.k(uf) + ".fn", [self.lit("S"), *argfs], {})
        share = self._share
        key = share.key(uf.name, argfs, out) if share is not None and not uf.effect else None
        if key is None:
            return out, uf.ret
        if key not in share.wrap:  # counting (hoist.SharedCalls)
            share.seen[key] = share.seen.get(key, 0) + 1
            return out, uf.ret
        j = share.index.setdefault(key, len(share.index))
        kept = self.k(share.store)
        # kept as (work left before, value, work left after): no call to make it
        return self.gen(f"({self.k(held_again)}({kept}[{j}]) if {kept}[{j}] is not None else "
                        f"({kept}.__setitem__({j}, (WORK[0], {{0}}, WORK[0])) or "
                        f"{kept}[{j}][1]))", out), uf.ret

    def _inline(self, uf: UserFn, argfs: list[Fn], sc: Scope,
                types: list[str] | None = None, node: N.Call | None = None) -> Src | None:
        """A call of a small function compiled into the caller: its body with the parameters
        in slots of the caller's frame (a slot argument is used as it is, so that a seat stays
        known to be one). Only functions that read the game are inlined (pure ones are called,
        for their remembered results), only once all are compiled (so never into a function,
        and never recursively), and a Python error inside is reported at the caller's rule.
        None where the call stays a call."""
        if not (self.functions_final and uf.tree is not None and not uf.effect and not uf.pure
                and "@" not in uf.name and uf.name + "@super" not in self.sym.functions
                and uf.name not in self._inlining and len(self._inlining) < MAX_INLINE
                and uf.size <= min(MAX_INLINE_BODY, self._inline_left)
                and len(argfs) == len(uf.params) and not self.errors):
            return None
        self._inline_left -= uf.size
        body = Scope(fn=None)
        body.n = sc.n
        body.sure = sc.sure
        setters = []
        for i, (p, f) in enumerate(zip(uf.params, argfs)):
            if is_local(f):
                # a card stays known to be one (its attributes read from the deck's tables)
                t = types[i] if types is not None and types[i] == "card" else "any"
                body.slots[p], body.types[p] = slot_of(f), t  # type: ignore[arg-type]
            elif isinstance(f, Src) and ALIASED.fullmatch(f.src) and (
                    not f.src.startswith("_k") or const_of(f) is not NOT_CONST):
                # read where it is used: `me` stays known to be a seat, a constant to be one
                body.alias[body.new_slot(p)] = f.src
            else:
                slot = body.new_slot(p)
                setters.append(f"F.__setitem__({slot}, {src_of(f, self.cg)[0]}) or ")
        self._inlining.append(uf.name)
        hoisted = hoist_inlined(self, uf, body)  # its calls that read only the game (hoist.py)
        held = self._hold_inlined(uf, body, node)
        try:
            fn, _t = self.expr(uf.tree, body)
        finally:
            self._inlining.pop()
            unhoist(self, hoisted)
            for key in held:
                self._held.pop(key, None)
                self._held_scopes.pop(key, None)
        if self.errors or not isinstance(fn, Src) or len(fn.src) > MAX_INLINE_SRC:
            self.errors.clear()
            return None
        sc.n = max(sc.n, body.n)
        if not setters:
            return fn
        src, depth = src_of(fn, self.cg)
        return Src("(" + "".join(setters) + src + ")", self.cg, depth + 1)


    def _held_call(self, n: N.Node, sc: Scope, meth: Any) -> tuple[Fn, str]:
        """A call of an action's when that no argument changes (hoist.py): made the first
        time it is reached in a listing, its value and work kept; later, the work charged."""
        slot = self._held.pop(id(n))
        f, t = meth(n, sc)
        if isinstance(f, Src) and plain_src(f.src):  # inlined to reads only: read again
            return f, t
        # kept as (work left before, value, work left after), as SharedCalls keeps its own:
        # made with no call of a Python function (the slot is None until then)
        return self.gen(f"({self.k(held_again)}(F[{slot}]) if F[{slot}] is not None else "
                        f"(F.__setitem__({slot}, (WORK[0], {{0}}, WORK[0])) or "
                        f"F[{slot}][1]))", f), t

    def _hold_inlined(self, uf: UserFn, body: Scope, node: N.Call | None) -> list[int]:
        """Inlined into an action's when (``_held_scopes`` knows the call): the calls of the
        body that no argument of the action changes, through the parameters given them, held
        for the listing (hoist.py). The keys to drop once the body is compiled."""
        where = self._held_scopes.get(id(node)) if node is not None else None
        if where is None:
            return []
        calls, scopes = when_invariant_calls(
            uf.tree, variant_params(node, uf.params, where))  # type: ignore[arg-type]
        keys = [id(c) for c in calls]
        self._held.update((id(c), body.new_slot(f"@held{id(c)}")) for c in calls)
        self._held_scopes.update(scopes)
        return keys + list(scopes)
