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
from .game import CARDS, FREE, card_kind
from .limits import MAX_LOOP as MAX_LOOP  # re-exported: tests name it here
from .limits import MAX_NUMBER
from .scope import SEAT_LISTS, SPECIAL, Fn, Scope, elem_of
from .structured import LIST, NUMBER, RECORD, clash, get_in, set_in


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
        body = [
            # (where the block's first line sets it, that is all: nothing before it can fail)
            *(["    _i = 0"] if lines[:1] != ["        _i = 0"] else []),
            "    try:",
            *lines,
            "    except RulesError as e:",
            "        if not e.span.line:",
            f"            e.span = {k}[_i]",
            "        raise",
            "    except PY_ERRORS as e:",
            f"        raise RuntimeRulesError(_why(e), {k}[_i]) from None",
        ]
        fn = self.cg.define("_s", ["def _s(S, F):", *body], spans[0] if spans else None)
        fn.body = body  # for an action's whole step, written as one function (fuse.py)
        return fn

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
            src = self._src(it)
            # a copy: the body may move the very cards it loops over (a list of seats just
            # made needs none)
            out.append(f"{pad}for F[{slot}] in _work("
                       f"{'range(S.n)' if src == SEAT_LISTS[1] else f'list({src})'}, "
                       f"{self.k(n.span)}):")
            # the table's seats, in a body that binds the name to nothing else: each a seat
            # (indexes of zones and counters unchecked, as in comprehensions)
            sure = src in SEAT_LISTS and slot not in sc.sure and not _rebinds(n.body, n.var)
            if sure:
                sc.sure.add(slot)
            self._block(n.body, sc, out, ind + 1, spans)
            if sure:
                sc.sure.discard(slot)
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
            line = self._src(self._expr_stmt(n, sc))
            if n.call.func == "log" and n.call.func not in self.sym.functions:
                # a log line's text (a rules function naming a hand, say) is only worked out
                # when the game keeps its messages: simulate and search never read them
                line = f"if S.record: {line}"
            out.append(pad + line)
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
        if n.path or (n.index is not None and name in sym.globals):
            return self.s_assign_in(n, sc, v, binop, vt)  # a place inside a list or record
        if n.index is not None:
            if name in sym.counters:
                self._shape_clash(name, sym.counter_shapes, given, n)
                self.counter_types.setdefault(name, set()).add(given)
                idx = self._src(self.expr(n.index, sc)[0])
                r, p = self.cg.temp(), self.cg.temp()
                # within the numbers a counter holds (runtime.counter): a float that
                # overflowed is a located error here, not a NaN in the run's statistics
                value = f"{r}[{p}] {binop} ({v})" if binop is not None else v
                lines = [f"{r} = S.ctr[{sym.counters[name]}]", f"{p} = {idx}"]
                if binop is None and _small_whole(v):  # a written-out number: nothing to check
                    lines.append(f"{r}[{p}] = {value}")
                else:
                    # a whole number within the bounds checked inline (runtime.counter's
                    # first case), anything else by the call
                    t = self.cg.temp()
                    lines += [f"{t} = {value}",
                              f"{r}[{p}] = {t} if type({t}) is int and -{MAX_NUMBER} <= {t} "
                              f"<= {MAX_NUMBER} else _counter({t}, {self.k(name)})"]
                if name in sym.team_counters:  # its teammates' too (teams.py)
                    lines.append(f"S.share({sym.counters[name]}, {p})")
                return lines
            self.err(f"only a counter can be assigned by seat; '{name}' is not one"
                     f"{did_you_mean(name, sym.counters)}", n.span)
            return ["pass"]
        if name in sym.globals:
            self._shape_clash(name, sym.global_shapes, given, n)
            self.global_types.setdefault(name, set()).add(given)
            return [update(f"S.g[{sym.globals[name]}]")]
        if name == "dealer" and op == "=":
            # the dealer may be chosen by effects (a draw for the first deal in match.start)
            return [f"S.dealer = _dealer(S, {v})"]
        if name == "direction" and op == "=" and name not in sc.slots and not (
                name in sym.counters or name in sym.zones or name in sym.values):
            return [f"S.fx_set_direction({v})"]  # which way play goes (seats.py)
        if name in sym.counters or name in sym.zones or name in SPECIAL or name in sym.values:
            self.err(f"'{name}' cannot be assigned", n.span)
            return ["pass"]
        if op != "=" and name not in sc.slots:
            self.err(f"unknown name '{name}'{did_you_mean(name, sym.globals)}", n.span)
        return [update(f"F[{sc.bind(name, vt)}]")]

    def _shape_clash(self, name: str, shapes: dict[str, str | None], given: str,
                     n: N.Assign) -> None:
        """A check error when a value of type ``given`` is assigned where a value of another
        shape lives (a number to a counter that starts as a list: structured.clash)."""
        why = clash(shapes.get(name), given)
        if why is not None:
            self.err(f"cannot assign this to '{name}': {why}", n.value.span)

    def s_assign_in(self, n: N.Assign, sc: Scope, v: str, binop: str | None,
                    vt: str) -> list[str]:
        """``bets[p][i] = v``, ``hist[0] += 1``, ``best.stake = 5``: a new list or record with
        that place replaced, given to the counter or global (structured.set_in)."""
        sym = self.sym
        name = n.name
        if name in sym.counters:
            ci = sym.counters[name]
            idx = self._src(self.expr(n.index, sc)[0])  # type: ignore[arg-type]
            r, p = self.cg.temp(), self.cg.temp()
            lines = [f"{r} = S.ctr[{ci}]", f"{p} = {idx}"]
            holder = f"{r}[{p}]"
            path = list(n.path)
            shape = sym.counter_shapes.get(name)
        elif name in sym.globals:
            lines = []
            holder = f"S.g[{sym.globals[name]}]"
            path = ([n.index] if n.index is not None else []) + list(n.path)
            shape = sym.global_shapes.get(name)
        else:
            self.err(f"only a place inside a counter or a global can be assigned; '{name}' is "
                     f"neither{did_you_mean(name, list(sym.counters) + list(sym.globals))}",
                     n.span)
            return ["pass"]
        if shape == NUMBER:
            self.err(f"'{name}' holds a number (its starting value is one): it has no places "
                     "inside it to assign", n.span)
        keys = "[" + ", ".join(repr(k) if isinstance(k, str) else self._src(self.expr(k, sc)[0])
                               for k in path) + "]"
        kv = self.cg.temp()
        lines.append(f"{kv} = {keys}")
        value = v if binop is None else f"{self.k(get_in)}({holder}, {kv}) {binop} ({v})"
        new = f"{self.k(set_in)}({holder}, {kv}, {value})"
        # what the holder holds afterwards, as far as cards go (views, sampled worlds): a
        # value that is no card put in a list or record leaves it as free of cards as it was
        # (its type is what its other values give it); a card or unknown value may be a card
        vt = vt if binop is None else "num"
        if card_kind(vt) != FREE or shape not in (LIST, RECORD):
            (self.counter_types if name in sym.counters else self.global_types).setdefault(
                name, set()).add("any")
        if name in sym.counters:
            return lines + [f"{holder} = _counter({new}, {self.k(name)})"]
        return lines + [f"{holder} = {new}"]


def _small_whole(src: str) -> bool:
    """Whether generated source ``src`` is a whole number written out that a counter may hold
    (under 10^30, ``MAX_NUMBER``: ``runtime.counter`` would let it through unchanged)."""
    digits = src[1:] if src[:1] == "-" else src
    return 0 < len(digits) < len(str(MAX_NUMBER)) and digits.isascii() and digits.isdigit()


def _rebinds(body: tuple[N.Node, ...], var: str) -> bool:
    """Whether statements ``body`` assign to ``var`` or loop with it again."""
    return any((isinstance(x, N.Assign) and x.name == var)
               or (isinstance(x, N.For) and x.var == var) for b in body for x in N.walk(b))
