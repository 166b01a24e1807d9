"""Stage 4/5: check names and types of parsed rules text and compile it to Python closures.

Every expression becomes a closure ``f(S, F)`` over the state ``S`` and a frame list ``F`` of
local slots whose indices are fixed at compile time; every statement becomes a closure that
changes ``S``. Names are resolved once, here: a name that is not a local, a declared item of the
rules file or a built-in is an error with a "did you mean". Types are inferred bottom-up (loosely:
``any`` where it cannot tell) to catch wrong arguments before anyone plays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import nodes as N
from .builtins import (
    MAX_COLLECTION,
    MELD_SPECS,
    PURE,
    WORK,
    Builtin,
    Group,
    _meld_funcs,
    out_of_work,
)
from .errors import CheckError, RulesError, RuntimeRulesError, Span, did_you_mean

Fn = Callable[[Any, list], Any]
MAX_LOOP = 10_000

CARD_ATTRS = {"rank": "str", "suit": "str", "color": "str", "order": "int", "joker": "bool",
              "name": "str"}
SPECIAL = {
    "me": "seat", "turn": "seat", "dealer": "seat", "phase": "str", "round": "int",
    "turns": "int", "ended_by": "str", "players": "list[seat]", "num_players": "int",
    "suits": "list[str]", "ranks": "list[str]", "seats": "list[seat]",
}
# effects and state-reading functions that the engine provides (see engine.State)
STATE_FUNCS: dict[str, tuple[int, int, str, str, bool]] = {
    # name: (min args, max args, kinds, return type, is effect)
    "next_seat": (1, 2, "xx", "seat", False),
    "prev_seat": (1, 2, "xx", "seat", False),
    "seats_from": (1, 1, "x", "list[seat]", False),
    "active": (1, 1, "x", "bool", False),
    "owner": (1, 1, "x", "seat", False),
    "zone_of": (1, 1, "x", "str", False),
    "visible_to": (2, 2, "xx", "bool", False),
    "move": (2, 2, "xz", "none", True),
    "shuffle": (1, 1, "z", "none", True),
    "gather": (1, 1, "z", "none", True),
    "deal": (3, 3, "zzx", "none", True),
    "show": (1, 1, "x", "none", True),
    "hide": (1, 1, "x", "none", True),
    "eliminate": (1, 1, "x", "none", True),
    "meld": (2, 2, "xz", "none", True),
    "end_round": (1, 1, "n", "none", True),
    "log": (1, 1, "x", "none", True),
}
STATE_KWARGS = {"move": ("at", "face"), "deal": ("start", "face")}


@dataclass
class UserFn:
    """A function or procedure of the rules file; ``fn`` is filled in after compiling."""

    name: str
    params: tuple[str, ...]
    span: Span
    effect: bool
    nslots: int = 0
    fn: Callable[..., Any] | None = None
    calls: set[str] = field(default_factory=set)
    ret: str = "any"
    pure: bool = False


@dataclass
class Symbols:
    """What names mean in a rules file: the tables the compiler resolves names against."""

    globals: dict[str, int]
    counters: dict[str, int]
    zones: dict[str, tuple[int, bool]]  # name -> (id or base id, per player)
    options: dict[str, Any]
    values: dict[str, dict[str, Any]]
    card_values: dict[str, tuple]  # value table -> tuple indexed by card id
    data: dict[str, Any]
    functions: dict[str, UserFn]
    phases: set[str]
    ended_by: set[str]
    group_zones: set[str]
    deck_size: int
    card_rank: tuple
    card_suit: tuple
    card_order: tuple
    card_color: tuple
    card_joker: tuple
    card_name: tuple


class Scope:
    """Locals of one compiled unit (a function body or a top-level string)."""

    def __init__(self, params: tuple[str, ...] = (), in_action: bool = False,
                 phase_names: bool = False, fn: UserFn | None = None) -> None:
        self.slots: dict[str, int] = {p: i for i, p in enumerate(params)}
        self.types: dict[str, str] = {p: "any" for p in params}
        self.n = len(params)
        self.in_action = in_action
        self.phase_names = phase_names
        self.fn = fn

    def new_slot(self, name: str, typ: str = "any") -> int:
        # a fresh slot per binding keeps nested comprehensions and lets from clobbering outers
        i = self.n
        self.n += 1
        self.slots[name] = i
        self.types[name] = typ
        return i

    def bind(self, name: str, typ: str = "any") -> int:
        if name in self.slots:
            self.types[name] = typ if self.types.get(name) in (None, typ) else "any"
            return self.slots[name]
        return self.new_slot(name, typ)


def _elem(t: str) -> str:
    if t.startswith("list[") and t.endswith("]"):
        return t[5:-1]
    return "any"


def _is_num(t: str) -> bool:
    return t in ("int", "num", "seat", "any")


W = WORK  # loop iterations left in this engine step (builtins.MAX_WORK)
MAX_NUMBER = 10**30  # products beyond this are refused: squaring in a loop grows without end


def _concat(x: Any, y: Any) -> list:
    if len(x) + len(y) > MAX_COLLECTION:
        raise RuntimeRulesError(f"a list of more than {MAX_COLLECTION} items")
    return list(x) + list(y)


def _add(x: Any, y: Any) -> Any:
    r = x + y
    if (type(r) is list or type(r) is str) and len(r) > MAX_COLLECTION:
        raise RuntimeRulesError(f"a list or text of more than {MAX_COLLECTION} items")
    return r


def _mul(x: Any, y: Any) -> Any:
    if type(x) is int and type(y) is int:
        r = x * y
        if -MAX_NUMBER <= r <= MAX_NUMBER:
            return r
        raise RuntimeRulesError("a number grew beyond 10^30")
    if not isinstance(x, (int, float)) or not isinstance(y, (int, float)):
        raise RuntimeRulesError("'*' needs numbers")
    return x * y


def _seat_checked(idx: Fn, name: str) -> Fn:
    def seat(S: Any, F: list) -> int:
        p = idx(S, F)
        if type(p) is not int or not 0 <= p < S.n:
            raise RuntimeRulesError(f"{name}[{p!r}]: there is no seat {p!r}")
        return p
    return seat


class Compiler:
    def __init__(self, sym: Symbols) -> None:
        self.sym = sym
        self.errors: list[RulesError] = []
        # what each global is assigned, so that views can show it (a card by name or '?')
        self.global_types: dict[str, set[str]] = {}
        # set when compiled code reads the state: a function that never does is pure, and its
        # results can be remembered (see build._install)
        self.touch = False

    def err(self, msg: str, span: Span) -> None:
        self.errors.append(CheckError(msg, span))

    # ------------------------------------------------------------------ expressions
    def expr(self, n: N.Node, sc: Scope) -> tuple[Fn, str]:
        meth = getattr(self, "e_" + type(n).__name__, None)
        if meth is None:
            self.err(f"{type(n).__name__} cannot be used as a value here", n.span)
            return (lambda S, F: None), "any"
        return meth(n, sc)

    def e_Const(self, n: N.Const, sc: Scope) -> tuple[Fn, str]:
        v = n.value
        t = ("bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "num"
             if isinstance(v, float) else "str" if isinstance(v, str) else "none")
        return (lambda S, F: v), t

    def e_Name(self, n: N.Name, sc: Scope) -> tuple[Fn, str]:
        name = n.id
        sym = self.sym
        if name in sc.slots:
            i = sc.slots[name]
            return (lambda S, F: F[i]), sc.types.get(name, "any")
        if sc.phase_names and name in sym.phases | {"end_turn"}:
            return (lambda S, F: name), "phase"
        if name in SPECIAL:
            if name not in ("suits", "ranks"):
                self.touch = True
            return self._special(name), SPECIAL[name]
        if name in sym.globals or name in sym.zones or name in sym.counters:
            self.touch = True
        if name in sym.globals:
            i = sym.globals[name]
            return (lambda S, F: S.g[i]), "any"
        if name in sym.zones:
            zid, per = sym.zones[name]
            if per:
                self.err(f"'{name}' is a zone of each player: write {name}[seat]", n.span)
                return (lambda S, F: []), "list[card]"
            if name in sym.group_zones:
                return (lambda S, F: S.group_list(zid)), "list[group]"
            return (lambda S, F: S.zones[zid]), "list[card]"
        if name in sym.data:
            v = sym.data[name]
            return (lambda S, F: v), "any"
        if name in sym.values:
            v = sym.values[name]
            return (lambda S, F: v), "table"
        if name in sym.counters:
            i = sym.counters[name]
            return (lambda S, F: S.ctr[i]), "list[int]"
        if name == "opt":
            self.err("'opt' needs an option's name: opt.NAME", n.span)
            return (lambda S, F: None), "any"
        if sc.phase_names:
            self.err(f"next: '{name}' is not a phase{did_you_mean(name, sym.phases)}; "
                     f"expected one of {', '.join(sorted(sym.phases))} or end_turn", n.span)
            return (lambda S, F: None), "any"
        known = (list(sc.slots) + list(SPECIAL) + list(sym.globals) + list(sym.zones)
                 + list(sym.data) + list(sym.values) + list(sym.counters))
        self.err(f"unknown name '{name}'{did_you_mean(name, known)}", n.span)
        return (lambda S, F: None), "any"

    def _special(self, name: str) -> Fn:
        if name == "me":
            return lambda S, F: S.actor
        if name == "turn":
            return lambda S, F: S.turn
        if name == "dealer":
            return lambda S, F: S.dealer
        if name == "phase":
            return lambda S, F: S.phase
        if name == "round":
            return lambda S, F: S.round
        if name == "turns":
            return lambda S, F: S.turns
        if name == "ended_by":
            return lambda S, F: S.ended_by
        if name == "players":
            return lambda S, F: S.players()
        if name == "num_players":
            return lambda S, F: S.n
        if name == "seats":
            return lambda S, F: list(range(S.n))
        if name == "suits":
            suits = list(dict.fromkeys(s for s in self.sym.card_suit if s is not None))
            return lambda S, F: suits
        ranks = list(dict.fromkeys(self.sym.card_rank))
        return lambda S, F: ranks

    def e_Attr(self, n: N.Attr, sc: Scope) -> tuple[Fn, str]:
        if isinstance(n.obj, N.Name) and n.obj.id == "opt" and "opt" not in sc.slots:
            if n.name not in self.sym.options:
                self.err(f"unknown option '{n.name}'{did_you_mean(n.name, self.sym.options)}",
                         n.name_span or n.span)
                return (lambda S, F: None), "any"
            v = self.sym.options[n.name]
            t = "bool" if isinstance(v, bool) else "num" if isinstance(v, (int, float)) else "str"
            return (lambda S, F: v), t
        obj, t = self.expr(n.obj, sc)
        if n.name in CARD_ATTRS and t == "card":
            table = getattr(self.sym, "card_" + n.name)
            return (lambda S, F: table[obj(S, F)]), CARD_ATTRS[n.name]
        if t in ("card",):
            self.err(f"a card has no attribute '{n.name}'{did_you_mean(n.name, CARD_ATTRS)}"
                     f"; it has {', '.join(CARD_ATTRS)}", n.name_span or n.span)
            return (lambda S, F: None), "any"
        if t == "group" and n.name not in ("owner", "number"):
            self.err(f"a group on the table has 'owner' and 'number', not '{n.name}'", n.span)
            return (lambda S, F: None), "any"
        if t not in ("any", "record", "group"):
            self.err(f"'.{n.name}' needs a card or a record, not {t}", n.span)
            return (lambda S, F: None), "any"
        key = n.name
        ctable = getattr(self.sym, "card_" + key) if key in CARD_ATTRS else None

        def attr(S: Any, F: list) -> Any:
            o = obj(S, F)
            if type(o) is int and ctable is not None and 0 <= o < len(ctable):
                return ctable[o]  # a card whose type the checker could not tell
            if isinstance(o, dict):
                if key not in o:
                    raise RuntimeRulesError(f"this record has no field '{key}'")
                return o[key]
            if isinstance(o, int) and not isinstance(o, bool) and key in CARD_ATTRS:
                table = getattr(self.sym, "card_" + key)
                if 0 <= o < len(table):
                    return table[o]
                raise RuntimeRulesError(f"{o!r} is not a card")
            if isinstance(o, Group) and key in ("owner", "number"):
                return getattr(o, key)
            raise RuntimeRulesError(f"cannot take '.{key}' of this value")

        return attr, "any"

    def e_Index(self, n: N.Index, sc: Scope) -> tuple[Fn, str]:
        sym = self.sym
        if isinstance(n.obj, N.Name) and n.obj.id not in sc.slots:
            name = n.obj.id
            idx, _it = self.expr(n.index, sc)
            if name in sym.zones or name in sym.counters:
                self.touch = True
            if name in sym.zones and sym.zones[name][1]:
                base = sym.zones[name][0]
                seat = _seat_checked(idx, name)
                if name in sym.group_zones:
                    return (lambda S, F: S.group_list(base + seat(S, F))), "list[group]"

                def zone(S: Any, F: list) -> list:
                    p = idx(S, F)
                    if 0 <= p < S.n:
                        return S.zones[base + p]
                    raise RuntimeRulesError(f"{name}[{p!r}]: there is no seat {p!r}")
                return zone, "list[card]"
            if name in sym.counters:
                ci = sym.counters[name]
                seat = _seat_checked(idx, name)
                return (lambda S, F: S.ctr[ci][seat(S, F)]), "num"
            if name in sym.values:
                # a value table indexed by a card's rank: look it up by card id instead
                if isinstance(n.index, N.Attr) and n.index.name == "rank":
                    cobj, ct = self.expr(n.index.obj, sc)
                    if ct in ("card", "any"):
                        table = sym.card_values[name]
                        return (lambda S, F: table[cobj(S, F)]), "num"
                d = sym.values[name]
                nm = name

                def lookup(S: Any, F: list) -> Any:
                    k = idx(S, F)
                    if k not in d:
                        raise RuntimeRulesError(f"value table '{nm}' has no entry for {k!r}")
                    return d[k]

                return lookup, "num"
        obj, t = self.expr(n.obj, sc)
        idx, _it = self.expr(n.index, sc)
        if t in ("int", "num", "bool", "card", "seat", "none"):
            self.err(f"cannot index {t} with [...]", n.span)

        def index(S: Any, F: list) -> Any:
            o = obj(S, F)
            k = idx(S, F)
            try:
                return o[k]
            except (IndexError, KeyError):
                raise RuntimeRulesError(f"index {k!r} is out of range") from None
            except TypeError:
                raise RuntimeRulesError("cannot index this value") from None

        return index, _elem(t)

    def e_Slice(self, n: N.Slice, sc: Scope) -> tuple[Fn, str]:
        obj, t = self.expr(n.obj, sc)
        lo = self.expr(n.lo, sc)[0] if n.lo else (lambda S, F: None)
        hi = self.expr(n.hi, sc)[0] if n.hi else (lambda S, F: None)
        return (lambda S, F: list(obj(S, F)[lo(S, F):hi(S, F)])), t

    def e_ListLit(self, n: N.ListLit, sc: Scope) -> tuple[Fn, str]:
        items = [self.expr(x, sc) for x in n.items]
        fs = [f for f, _ in items]
        ts = {t for _, t in items}
        t = f"list[{ts.pop()}]" if len(ts) == 1 else "list"
        return (lambda S, F: [f(S, F) for f in fs]), t

    def e_Comprehension(self, n: N.Comprehension, sc: Scope) -> tuple[Fn, str]:
        saved = dict(sc.slots), dict(sc.types)
        try:
            return self._comprehension(n, sc)
        finally:  # the loop variables end with the comprehension
            sc.slots, sc.types = saved

    def _comprehension(self, n: N.Comprehension, sc: Scope) -> tuple[Fn, str]:
        clauses = []
        for var, it, cond in n.clauses:
            itf, itt = self.expr(it, sc)
            slot = sc.new_slot(var, _elem(itt))
            condf = self.expr(cond, sc)[0] if cond is not None else None
            clauses.append((itf, slot, condf))
        elt, et = self.expr(n.elt, sc)

        span = n.span

        def run(S: Any, F: list, k: int, out: list) -> None:
            itf, slot, condf = clauses[k]
            last = k == len(clauses) - 1
            xs = list(itf(S, F))
            W[0] -= len(xs)
            if W[0] < 0:
                out_of_work(span)
            for v in xs:
                F[slot] = v
                if condf is not None and not condf(S, F):
                    continue
                if last:
                    out.append(elt(S, F))
                else:
                    run(S, F, k + 1, out)

        if len(clauses) == 1:
            itf, slot, condf = clauses[0]
            if condf is None:
                def comp1(S: Any, F: list) -> list:
                    out = []
                    xs = itf(S, F)
                    W[0] -= len(xs)
                    if W[0] < 0:
                        out_of_work(span)
                    for v in xs:
                        F[slot] = v
                        out.append(elt(S, F))
                    return out
                return comp1, f"list[{et}]"

            def comp2(S: Any, F: list) -> list:
                out = []
                xs = itf(S, F)
                W[0] -= len(xs)
                if W[0] < 0:
                    out_of_work(span)
                for v in xs:
                    F[slot] = v
                    if condf(S, F):
                        out.append(elt(S, F))
                return out
            return comp2, f"list[{et}]"

        def comp(S: Any, F: list) -> list:
            out: list = []
            run(S, F, 0, out)
            return out

        return comp, f"list[{et}]"

    def e_Lambda(self, n: N.Lambda, sc: Scope) -> tuple[Fn, str]:
        saved = dict(sc.slots), dict(sc.types)
        slot = sc.new_slot(n.param)
        body, _ = self.expr(n.body, sc)
        sc.slots, sc.types = saved

        def make(S: Any, F: list) -> Callable[[Any], Any]:
            def f(v: Any) -> Any:
                F[slot] = v
                return body(S, F)
            return f

        return make, "fn"

    def e_IfExpr(self, n: N.IfExpr, sc: Scope) -> tuple[Fn, str]:
        c = self.expr(n.cond, sc)[0]
        a, at = self.expr(n.then, sc)
        b, bt = self.expr(n.orelse, sc)
        return (lambda S, F: a(S, F) if c(S, F) else b(S, F)), (at if at == bt else "any")

    def e_Let(self, n: N.Let, sc: Scope) -> tuple[Fn, str]:
        v, vt = self.expr(n.value, sc)
        saved = (sc.slots.get(n.name), sc.types.get(n.name))
        slot = sc.new_slot(n.name, vt)
        body, bt = self.expr(n.body, sc)
        if saved[0] is not None:
            sc.slots[n.name], sc.types[n.name] = saved[0], saved[1] or "any"
        else:
            del sc.slots[n.name]

        def let(S: Any, F: list) -> Any:
            F[slot] = v(S, F)
            return body(S, F)

        return let, bt

    def e_BoolOp(self, n: N.BoolOp, sc: Scope) -> tuple[Fn, str]:
        fs = [self.expr(x, sc)[0] for x in n.values]
        if n.op == "and":
            if len(fs) == 2:
                a, b = fs
                return (lambda S, F: a(S, F) and b(S, F)), "bool"

            def and_(S: Any, F: list) -> Any:
                r: Any = True
                for f in fs:
                    r = f(S, F)
                    if not r:
                        return r
                return r
            return and_, "bool"
        if len(fs) == 2:
            a, b = fs
            return (lambda S, F: a(S, F) or b(S, F)), "bool"

        def or_(S: Any, F: list) -> Any:
            r: Any = False
            for f in fs:
                r = f(S, F)
                if r:
                    return r
            return r
        return or_, "bool"

    def e_Not(self, n: N.Not, sc: Scope) -> tuple[Fn, str]:
        f = self.expr(n.operand, sc)[0]
        return (lambda S, F: not f(S, F)), "bool"

    def e_Neg(self, n: N.Neg, sc: Scope) -> tuple[Fn, str]:
        f, t = self.expr(n.operand, sc)
        if not _is_num(t):
            self.err(f"cannot negate {t}", n.span)
        return (lambda S, F: -f(S, F)), t

    def e_BinOp(self, n: N.BinOp, sc: Scope) -> tuple[Fn, str]:
        a, at = self.expr(n.left, sc)
        b, bt = self.expr(n.right, sc)
        op = n.op
        if op == "+" and (at.startswith("list") or bt.startswith("list")):
            return (lambda S, F: _concat(a(S, F), b(S, F))), at if at == bt else "list"
        for t, side in ((at, n.left), (bt, n.right)):
            if not _is_num(t):
                self.err(f"'{op}' needs numbers, but this is {t}", side.span)
        t = "int" if at == bt == "int" and op != "/" else "num"
        if op == "+":
            if "any" in (at, bt):  # strings or lists may meet here: keep their size bounded
                return (lambda S, F: _add(a(S, F), b(S, F))), t
            return (lambda S, F: a(S, F) + b(S, F)), t
        if op == "-":
            return (lambda S, F: a(S, F) - b(S, F)), t
        if op == "*":
            return (lambda S, F: _mul(a(S, F), b(S, F))), t
        if op == "/":
            return (lambda S, F: a(S, F) / b(S, F)), "num"
        if op == "//":
            return (lambda S, F: a(S, F) // b(S, F)), t
        return (lambda S, F: a(S, F) % b(S, F)), t

    def e_Compare(self, n: N.Compare, sc: Scope) -> tuple[Fn, str]:
        fs = [self.expr(x, sc) for x in n.operands]
        ops = n.ops
        if len(ops) == 1:
            (a, _at), (b, bt) = fs
            op = ops[0]
            if op in ("in", "not in") and bt in ("int", "num", "bool", "card", "seat"):
                self.err(f"'{op}' needs a list on its right, not {bt}", n.operands[1].span)
            table: dict[str, Fn] = {
                "==": lambda S, F: a(S, F) == b(S, F),
                "!=": lambda S, F: a(S, F) != b(S, F),
                "<": lambda S, F: a(S, F) < b(S, F),
                "<=": lambda S, F: a(S, F) <= b(S, F),
                ">": lambda S, F: a(S, F) > b(S, F),
                ">=": lambda S, F: a(S, F) >= b(S, F),
                "in": lambda S, F: a(S, F) in b(S, F),
                "not in": lambda S, F: a(S, F) not in b(S, F),
            }
            return table[op], "bool"
        import operator

        pyops = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
                 ">": operator.gt, ">=": operator.ge}
        chain = [(pyops[o], f) for o, (f, _) in zip(ops, fs[1:])]
        first = fs[0][0]

        def cmp(S: Any, F: list) -> bool:
            left = first(S, F)
            for op, f in chain:
                right = f(S, F)
                if not op(left, right):
                    return False
                left = right
            return True

        return cmp, "bool"

    # ------------------------------------------------------------------ calls
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
        if name in PURE:
            return self._pure_call(n, PURE[name], sc)
        if name in MELD_SPECS:
            return self._meld_call(n, sc)
        if name in STATE_FUNCS:
            _mn, _mx, _kinds, _ret, effect = STATE_FUNCS[name]
            if effect:
                self.err(f"'{name}' changes the game and can only be used as an effect", n.span)
            return self._state_call(n, sc)
        known = list(sym.functions) + list(PURE) + list(STATE_FUNCS) + list(MELD_SPECS)
        known = [k for k in known if "@" not in k]
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
            return lambda S, F: (lambda v: uf.fn(S, v))  # type: ignore[misc]
        f, t = self.expr(node, sc)
        if t not in ("fn", "any"):
            self.err(f"expected a function like 'x -> ...' here, got {t}", node.span)
        return f

    def _pure_call(self, n: N.Call, b: Builtin, sc: Scope) -> tuple[Fn, str]:
        self._check_arity(n, b.min_args, b.max_args, b.kwargs)
        if (b.name in ("any", "all") and len(n.args) == 1 and not n.kwargs
                and isinstance(n.args[0], N.Comprehension) and len(n.args[0].clauses) == 1):
            return self._any_all(b.name, n.args[0], sc)
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
                if b.name in ("size", "sum", "count", "any", "all", "sort", "filter", "map",
                              "group_by", "lowest", "highest", "ranked", "top", "bottom",
                              "first", "last", "reverse", "distinct") and i == 0 and t in (
                        "int", "num", "bool", "card", "seat", "none"):
                    self.err(f"{b.name}() needs a list or a zone, not {t}", a.span)
                argfs.append(f)
                types.append(t)
        kwfs = {}
        for k, a in n.kwargs:
            kwfs[k] = self._fn_arg(a, sc) if k == "key" else self.expr(a, sc)[0]
        impl = b.impl
        ret = b.ret
        if b.name in ("max", "min", "first", "last", "top", "bottom"):
            if len(types) == 1:
                ret = _elem(types[0])
                if b.name in ("top", "bottom") and types[0] == "list[card]":
                    ret = "card"
            elif len(types) > 1 and "fn" not in types:
                ret = types[0] if len(set(types)) == 1 else "num"
            if b.name in ("top", "bottom") and len(types) == 2:
                ret = types[0]
        elif b.name in ("sort", "reverse", "filter", "distinct", "without") and types:
            ret = types[0] if types[0].startswith("list") else "list"
        elif b.name in ("lowest", "highest") and types:
            ret = types[0] if types[0].startswith("list") else "list"
        elif b.name == "map":
            ret = "list"
        elif b.name == "combinations" and types:
            ret = f"list[{types[0]}]" if types[0].startswith("list[") else "list"
        if kwfs:
            def callkw(S: Any, F: list) -> Any:
                return impl(*[f(S, F) for f in argfs], **{k: f(S, F) for k, f in kwfs.items()})
            return callkw, ret
        if len(argfs) == 1:
            (a0,) = argfs
            if b.name == "size" and types[0].startswith("list"):
                return (lambda S, F: len(a0(S, F))), ret
            return (lambda S, F: impl(a0(S, F))), ret
        if len(argfs) == 2:
            a0, a1 = argfs
            return (lambda S, F: impl(a0(S, F), a1(S, F))), ret
        return (lambda S, F: impl(*[f(S, F) for f in argfs])), ret

    def _meld_call(self, n: N.Call, sc: Scope) -> tuple[Fn, str]:
        mn, mx, _kinds, ret, kws = MELD_SPECS[n.func]
        self._check_arity(n, mn, mx, kws)
        if not hasattr(self, "_melds"):
            sym = self.sym
            self._melds = _meld_funcs(sym.card_rank, sym.card_suit, sym.card_order,
                                      sym.card_name, len(set(sym.card_rank)))
        impl = self._melds[n.func]
        argfs = [self.expr(a, sc)[0] for a in n.args[:mx]]
        kwfs = {k: (self._fn_arg(a, sc) if k in ("wild", "key") else self.expr(a, sc)[0])
                for k, a in n.kwargs}
        for k, a in n.kwargs:
            if k == "ace" and not (isinstance(a, N.Const) and a.value in ("low", "high", "both")):
                self.err("ace: takes 'low', 'high' or 'both'", a.span)

        def call(S: Any, F: list) -> Any:
            return impl(*[f(S, F) for f in argfs], **{k: f(S, F) for k, f in kwfs.items()})

        return call, ret

    def _any_all(self, name: str, comp: N.Comprehension, sc: Scope) -> tuple[Fn, str]:
        """any(e for x in xs if c) / all(...) that stop at the first answer."""
        saved = dict(sc.slots), dict(sc.types)
        var, it, cond = comp.clauses[0]
        itf, itt = self.expr(it, sc)
        slot = sc.new_slot(var, _elem(itt))
        condf = self.expr(cond, sc)[0] if cond is not None else None
        elt = self.expr(comp.elt, sc)[0]
        sc.slots, sc.types = saved
        want = name == "any"
        span = comp.span

        def any_all(S: Any, F: list) -> bool:
            xs = itf(S, F)
            W[0] -= len(xs)
            if W[0] < 0:
                out_of_work(span)
            for v in xs:
                F[slot] = v
                if condf is not None and not condf(S, F):
                    continue
                r = elt(S, F)
                if bool(r) == want:
                    return want
            return not want

        return any_all, "bool"

    def _zone_arg(self, node: N.Node, sc: Scope) -> tuple[Fn, bool]:
        """A zone argument of an effect: (closure giving the zone id, whether it is per player
        and given without a seat, as in deal(stock, hand, 3))."""
        sym = self.sym
        if isinstance(node, N.Name) and node.id in sym.zones and node.id not in sc.slots:
            zid, per = sym.zones[node.id]
            return (lambda S, F: zid), per
        if (isinstance(node, N.Index) and isinstance(node.obj, N.Name)
                and node.obj.id in sym.zones and node.obj.id not in sc.slots):
            base, per = sym.zones[node.obj.id]
            if not per:
                self.err(f"'{node.obj.id}' is a shared zone; it takes no [seat]", node.span)
            idx, _ = self.expr(node.index, sc)
            return (lambda S, F: base + idx(S, F)), False
        f, t = self.expr(node, sc)
        if t in ("group", "any"):
            def group_zone(S: Any, F: list) -> int:
                g = f(S, F)
                if not isinstance(g, Group):
                    raise RuntimeRulesError("expected a zone or a group on the table here")
                return g.zid
            return group_zone, False
        self.err(f"expected a zone here (one of {', '.join(sym.zones)}), got {t}", node.span)
        return (lambda S, F: 0), False

    def _state_call(self, n: N.Call, sc: Scope) -> tuple[Fn, str]:
        name = n.func
        mn, mx, kinds, ret, _effect = STATE_FUNCS[name]
        self.touch = True
        self._check_arity(n, mn, mx, STATE_KWARGS.get(name, ()))
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
            elif kind == "n":
                if not isinstance(a, N.Const) or not isinstance(a.value, str):
                    self.err(f"{name}() needs a quoted name, like {name}('draw')", a.span)
                    argfs.append(lambda S, F: "")
                else:
                    v = a.value
                    if v not in self.sym.ended_by:
                        self.err(f"'{v}' is not a way the round can end: add it under "
                                 f"round.settle{did_you_mean(v, self.sym.ended_by)}", a.span)
                    argfs.append(lambda S, F, v=v: v)
            else:
                argfs.append(self.expr(a, sc)[0])
        kwfs = {k: self.expr(a, sc)[0] for k, a in n.kwargs}
        for k, a in n.kwargs:
            if k == "at" and not (isinstance(a, N.Const) and a.value in ("top", "bottom")):
                self.err("at: takes 'top' or 'bottom'", a.span)
            if k == "face" and not (isinstance(a, N.Const) and a.value in ("up", "down")):
                self.err("face: takes 'up' or 'down'", a.span)
        method = "fx_" + name

        if kwfs:
            def callkw(S: Any, F: list) -> Any:
                return getattr(S, method)(*[f(S, F) for f in argfs],
                                          **{k: f(S, F) for k, f in kwfs.items()})
            return callkw, ret
        if len(argfs) == 1:
            (a0,) = argfs
            return (lambda S, F: getattr(S, method)(a0(S, F))), ret
        if len(argfs) == 2:
            a0, a1 = argfs
            return (lambda S, F: getattr(S, method)(a0(S, F), a1(S, F))), ret
        return (lambda S, F: getattr(S, method)(*[f(S, F) for f in argfs])), ret

    def _user_call(self, n: N.Call, uf: UserFn, sc: Scope) -> tuple[Fn, str]:
        if n.kwargs:
            self.err(f"{n.func}() takes no named arguments", n.kwargs[0][1].span)
        if len(n.args) != len(uf.params):
            self.err(f"{n.func}() takes {len(uf.params)} argument"
                     f"{'s' if len(uf.params) != 1 else ''} ({', '.join(uf.params)}), "
                     f"got {len(n.args)}", n.span)
        if sc.fn is not None:
            sc.fn.calls.add(uf.name)
        argfs = [self.expr(a, sc)[0] for a in n.args][: len(uf.params)]
        if uf.effect and not getattr(self, "_in_stmt", False):
            self.err(f"'{uf.name}' is a procedure (it changes the game); call it as an effect",
                     n.span)
        if len(argfs) == 1:
            (a0,) = argfs
            return (lambda S, F: uf.fn(S, a0(S, F))), uf.ret  # type: ignore[misc]
        if len(argfs) == 2:
            a0, a1 = argfs
            return (lambda S, F: uf.fn(S, a0(S, F), a1(S, F))), uf.ret  # type: ignore[misc]
        return (lambda S, F: uf.fn(S, *[f(S, F) for f in argfs])), uf.ret  # type: ignore[misc]

    # ------------------------------------------------------------------ statements
    def stmts(self, ns: tuple[N.Node, ...], sc: Scope) -> Callable[[Any, list], None]:
        """A block: its statements in order. A Python failure inside one becomes a rules
        error located at that statement (try costs nothing until something is raised)."""
        compiled = [(self.stmt(x, sc), x.span) for x in ns]

        def seq(S: Any, F: list) -> None:
            span = None
            try:
                for f, span in compiled:  # noqa: B007 - span is read by the handlers
                    f(S, F)
            except RulesError as e:
                if not e.span.line and span is not None:
                    e.span = span
                raise
            except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError) as e:
                raise RuntimeRulesError(f"{type(e).__name__}: {e}", span) from None

        if len(compiled) == 1:
            f0, span0 = compiled[0]

            def one(S: Any, F: list) -> None:
                try:
                    f0(S, F)
                except RulesError as e:
                    if not e.span.line:
                        e.span = span0
                    raise
                except (ArithmeticError, LookupError, TypeError, ValueError,
                        AttributeError) as e:
                    raise RuntimeRulesError(f"{type(e).__name__}: {e}", span0) from None

            return one
        return seq

    def stmt(self, n: N.Node, sc: Scope) -> Callable[[Any, list], None]:
        return self._stmt(n, sc)

    def _stmt(self, n: N.Node, sc: Scope) -> Callable[[Any, list], None]:
        if isinstance(n, N.Assign):
            return self.s_assign(n, sc)
        if isinstance(n, N.If):
            branches = [(self.expr(c, sc)[0], self.stmts(b, sc)) for c, b in n.branches]
            orelse = self.stmts(n.orelse, sc) if n.orelse else None

            def if_(S: Any, F: list) -> None:
                for c, b in branches:
                    if c(S, F):
                        b(S, F)
                        return
                if orelse is not None:
                    orelse(S, F)
            return if_
        if isinstance(n, N.For):
            it, t = self.expr(n.iter, sc)
            slot = sc.bind(n.var, _elem(t))
            body = self.stmts(n.body, sc)

            span = n.span

            def for_(S: Any, F: list) -> None:
                xs = list(it(S, F))
                W[0] -= len(xs)
                if W[0] < 0:
                    out_of_work(span)
                for v in xs:
                    F[slot] = v
                    body(S, F)
            return for_
        if isinstance(n, N.While):
            cond = self.expr(n.cond, sc)[0]
            body = self.stmts(n.body, sc)
            span = n.span

            def while_(S: Any, F: list) -> None:
                k = 0
                while cond(S, F):
                    k += 1
                    if k > MAX_LOOP:
                        raise RuntimeRulesError(f"a loop ran more than {MAX_LOOP} times", span)
                    W[0] -= 1
                    if W[0] < 0:
                        out_of_work(span)
                    body(S, F)
            return while_
        if isinstance(n, N.ExprStmt):
            call = n.call
            self._in_stmt = True
            try:
                if call.func in STATE_FUNCS:
                    f = self._state_call(call, sc)[0]
                elif call.func in self.sym.functions or call.func == "super":
                    uf = self.sym.functions.get(call.func)
                    if uf is not None and not uf.effect:
                        self.err(f"'{call.func}' is a function that computes a value; "
                                 "an effect line must change the game", call.span)
                    f = self.expr(call, sc)[0]
                else:
                    f = self.expr(call, sc)[0]
                    if call.func in PURE:
                        self.err(f"{call.func}() computes a value and changes nothing; "
                                 "use it inside an effect or an assignment", call.span)
            finally:
                self._in_stmt = False
            span = n.span

            def call_(S: Any, F: list) -> None:
                try:
                    f(S, F)
                except RulesError as e:
                    if not e.span.line:
                        e.span = span
                    raise
            return call_
        return lambda S, F: None  # pass

    def s_assign(self, n: N.Assign, sc: Scope) -> Callable[[Any, list], None]:
        sym = self.sym
        value, vt = self.expr(n.value, sc)
        name = n.name
        op = n.op
        apply: Callable[[Any, Any], Any]
        if op == "=":
            apply = lambda old, v: v  # noqa: E731
        elif op == "+=":
            apply = lambda old, v: old + v  # noqa: E731
        elif op == "-=":
            apply = lambda old, v: old - v  # noqa: E731
        elif op == "*=":
            apply = lambda old, v: old * v  # noqa: E731
        else:
            apply = lambda old, v: old // v  # noqa: E731
        if n.index is not None:
            if name in sym.counters:
                ci = sym.counters[name]
                idx = self.expr(n.index, sc)[0]

                def set_counter(S: Any, F: list) -> None:
                    row = S.ctr[ci]
                    p = idx(S, F)
                    row[p] = apply(row[p], value(S, F))
                return set_counter
            known = list(sym.counters)
            self.err(f"only a counter can be assigned by seat; '{name}' is not one"
                     f"{did_you_mean(name, known)}", n.span)
            return lambda S, F: None
        if name in sym.globals:
            gi = sym.globals[name]
            self.global_types.setdefault(name, set()).add(vt if op == "=" else "num")

            def set_global(S: Any, F: list) -> None:
                S.g[gi] = apply(S.g[gi], value(S, F))
            return set_global
        if name == "dealer" and op == "=":
            # the dealer may be chosen by effects (a draw for the first deal in match.start)
            def set_dealer(S: Any, F: list) -> None:
                v = value(S, F)
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < S.n:
                    raise RuntimeRulesError(f"dealer = {v!r}: not a seat at this table")
                S.dealer = v
            return set_dealer
        if name in sym.counters or name in sym.zones or name in SPECIAL or name in sym.values:
            self.err(f"'{name}' cannot be assigned", n.span)
            return lambda S, F: None
        if op != "=" and name not in sc.slots:
            self.err(f"unknown name '{name}'{did_you_mean(name, list(sym.globals))}", n.span)
        slot = sc.bind(name, vt)

        def set_local(S: Any, F: list) -> None:
            F[slot] = apply(F[slot], value(S, F)) if op != "=" else value(S, F)
        return set_local
