"""Compiling effects: a block of statements (assignment, ``if``, ``for``, ``while``, calls of
effects and procedures) to one generated ``def``, whose error handler names the innermost
statement that failed.

A mixin of ``compile.Compiler``: the methods here use its ``expr``, ``gen``, ``k`` and ``err``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import nodes as N
from .builtins import (
    BUILTINS,
)
from .codegen import src_of
from .errors import Span, did_you_mean
from .game import CARDS, card_kind
from .limits import MAX_LOOP as MAX_LOOP  # re-exported: tests name it here
from .scope import SPECIAL, Fn, Scope, elem_of


class Statements:
    """The compiler's statements (see the module docstring)."""

    def stmts(self, ns: tuple[N.Node, ...], sc: Scope) -> Callable[[Any, list], None]:
        """A block compiled to one generated function ``f(S, F)``. A Python failure inside
        becomes a rules error located at the innermost statement that was running (``_i``
        says which; try costs nothing until something is raised)."""
        spans: list[Span] = []
        lines: list[str] = []
        self._block(ns, sc, lines, 2, spans)
        k = self.k(spans)
        return self.cg.define("_s", [
            "def _s(S, F):",
            "    _i = 0",
            "    try:",
            *lines,
            "    except RulesError as e:",
            "        if not e.span.line:",
            f"            e.span = {k}[_i]",
            "        raise",
            "    except PY_ERRORS as e:",
            f"        raise RuntimeRulesError(_why(e), {k}[_i]) from None",
        ], spans[0] if spans else None)

    def _block(self, ns: tuple[N.Node, ...], sc: Scope, out: list[str], ind: int,
               spans: list[Span]) -> None:
        pad = "    " * ind
        if not ns:
            out.append(pad + "pass")
        for n in ns:
            out.append(f"{pad}_i = {len(spans)}")
            spans.append(n.span)
            self._emit(n, sc, out, ind, spans)

    def _src(self, f: Fn) -> str:
        return src_of(f, self.cg)[0]

    def _emit(self, n: N.Node, sc: Scope, out: list[str], ind: int, spans: list[Span]) -> None:
        pad = "    " * ind
        if isinstance(n, N.Assign):
            out.extend(pad + line for line in self.s_assign(n, sc))
        elif isinstance(n, N.If):
            for i, (c, b) in enumerate(n.branches):
                cond = self._src(self.expr(c, sc)[0])
                out.append(f"{pad}{'if' if i == 0 else 'elif'} {cond}:")
                self._block(b, sc, out, ind + 1, spans)
            if n.orelse:
                out.append(pad + "else:")
                self._block(n.orelse, sc, out, ind + 1, spans)
        elif isinstance(n, N.For):
            it, t = self.expr(n.iter, sc)
            slot = sc.bind(n.var, elem_of(t))
            # a copy: the body may move the very cards it loops over
            out.append(f"{pad}for F[{slot}] in _work(list({self._src(it)}), {self.k(n.span)}):")
            self._block(n.body, sc, out, ind + 1, spans)
        elif isinstance(n, N.While):
            cond = self._src(self.expr(n.cond, sc)[0])
            w = self.cg.temp()
            here = len(spans) - 1
            out.append(f"{pad}{w} = 0")
            out.append(f"{pad}while {cond}:")
            out.append(f"{pad}    {w} = _tick({w}, {self.k(n.span)})")
            self._block(n.body, sc, out, ind + 1, spans)
            out.append(f"{pad}    _i = {here}")
        elif isinstance(n, N.ExprStmt):
            out.append(pad + self._src(self._expr_stmt(n, sc)))
        else:
            out.append(pad + "pass")

    def _expr_stmt(self, n: N.ExprStmt, sc: Scope) -> Fn:
        call = n.call
        self._in_stmt = True
        try:
            # the rules file's own functions and procedures hide built-ins of the same name
            user = call.func in self.sym.functions or call.func == "super"
            b = None if user else BUILTINS.get(call.func)
            if user:
                uf = self.sym.functions.get(call.func)
                if uf is not None and not uf.effect:
                    self.err(f"'{call.func}' is a function that computes a value; "
                             "an effect line must change the game", call.span)
            elif b is not None and not b.effect:
                self.err(f"{call.func}() computes a value and changes nothing; "
                         "use it inside an effect or an assignment", call.span)
            return self._state_call(call, b, sc)[0] if b is not None and b.state else \
                self.expr(call, sc)[0]
        finally:
            self._in_stmt = False

    def s_assign(self, n: N.Assign, sc: Scope) -> list[str]:
        """The lines of an assignment (``x = v``, ``x += v``, ``counter[p] -= v``...)."""
        sym = self.sym
        value, vt = self.expr(n.value, sc)
        v = self._src(value)
        name = n.name
        op = n.op
        binop = {"=": None, "+=": "+", "-=": "-", "*=": "*"}.get(op, "//")

        def update(target: str) -> str:
            return f"{target} = {v}" if binop is None else f"{target} = {target} {binop} ({v})"

        # an update (+=...) of numbers gives a number; of cards, it keeps them cards
        given = vt if op == "=" or card_kind(vt) == CARDS else "num"
        if n.index is not None:
            if name in sym.counters:
                self.counter_types.setdefault(name, set()).add(given)
                idx = self._src(self.expr(n.index, sc)[0])
                r, p = self.cg.temp(), self.cg.temp()
                # within the numbers a counter holds (runtime.counter): a float that
                # overflowed is a located error here, not a NaN in the run's statistics
                value = f"{r}[{p}] {binop} ({v})" if binop is not None else v
                lines = [f"{r} = S.ctr[{sym.counters[name]}]", f"{p} = {idx}",
                         f"{r}[{p}] = _counter({value}, {self.k(name)})"]
                if name in sym.team_counters:  # its teammates' too (teams.py)
                    lines.append(f"S.share({sym.counters[name]}, {p})")
                return lines
            self.err(f"only a counter can be assigned by seat; '{name}' is not one"
                     f"{did_you_mean(name, sym.counters)}", n.span)
            return ["pass"]
        if name in sym.globals:
            self.global_types.setdefault(name, set()).add(given)
            return [update(f"S.g[{sym.globals[name]}]")]
        if name == "dealer" and op == "=":
            # the dealer may be chosen by effects (a draw for the first deal in match.start)
            return [f"S.dealer = _dealer(S, {v})"]
        if name in sym.counters or name in sym.zones or name in SPECIAL or name in sym.values:
            self.err(f"'{name}' cannot be assigned", n.span)
            return ["pass"]
        if op != "=" and name not in sc.slots:
            self.err(f"unknown name '{name}'{did_you_mean(name, sym.globals)}", n.span)
        return [update(f"F[{sc.bind(name, vt)}]")]
