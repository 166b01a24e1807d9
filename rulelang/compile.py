"""Stage 4/5: check names and types of parsed rules text and compile it to Python.

Every expression becomes a ``Src`` (``codegen.py``): Python source over the state ``S`` and a
frame list ``F`` of local slots whose indices are fixed at compile time, into which its parent
splices it, so that one rule becomes one generated function. Every block of effects becomes one
generated ``def``. The few constructs without a template stay closures ``f(S, F)`` that the
generated code calls. Names are resolved once, here: a name that is not a local, a declared item
of the rules file or a built-in is an error with a "did you mean". Types are inferred bottom-up
(loosely: ``any`` where it cannot tell) to catch wrong arguments before anyone plays.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from . import nodes as N
from .builtins import (
    BUILTINS,
    EXTREME_OF,
    KNOWN_KWARGS,
    Builtin,
    Group,
    _meld_funcs,
    charge,
    charged,
    nested,
)
from .codegen import Namespace, Src, fn_of, localize, src_of
from .errors import CheckError, RulesError, RuntimeRulesError, Span, did_you_mean
from .hoist import UNSET, hset, invariant_calls
from .lambdaloops import LOOPED, lambda_loop
from .limits import (
    MAX_COLLECTION,
    MAX_INLINE,
    MAX_INLINE_BODY,
    MAX_INLINE_SRC,
    MAX_INLINE_TOTAL,
    MAX_NUMBER,
)
from .limits import MAX_LOOP as MAX_LOOP  # re-exported: tests name it here

Fn = Callable[[Any, list], Any]

CARD_ATTRS = {"rank": "str", "suit": "str", "color": "str", "order": "int", "joker": "bool",
              "name": "str"}
SPECIAL = {
    "me": "seat", "turn": "seat", "dealer": "seat", "phase": "str", "round": "int",
    "turns": "int", "ended_by": "str", "players": "list[seat]", "num_players": "int",
    "suits": "list[str]", "ranks": "list[str]", "seats": "list[seat]",
}
_CMP_OPS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


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
    # per parameter: whether the order of a list passed there cannot change the result
    order_free: tuple[bool, ...] = ()
    # the body of a function (not a procedure), for inlining it where it is called, and its
    # number of nodes
    tree: Any = None
    size: int = 0


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
        # slots that only ever hold a seat of the table (the variable of a comprehension
        # over players or seats): indexing a zone or counter by them needs no check
        self.sure: set[int] = set()
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


def _index(o: Any, k: Any) -> Any:
    """``o[k]`` of rules text: a bad index or value is a rules error."""
    try:
        return o[k]
    except (IndexError, KeyError):
        raise RuntimeRulesError(f"index {k!r} is out of range") from None
    except TypeError:
        raise RuntimeRulesError("cannot index this value") from None


def _elem(t: str) -> str:
    if t.startswith("list[") and t.endswith("]"):
        return t[5:-1]
    return "any"


def _is_local(f: Any) -> bool:
    """Whether compiled code ``f`` just reads a frame slot (cheap to read twice)."""
    return isinstance(f, Src) and re.fullmatch(r"F\[\d+\]", f.src) is not None


def _inline_search(f: Any) -> bool:
    """Whether ``x in f`` charges its search inline (``f`` is read more than once then)."""
    return _is_local(f)


def _slot(f: Src) -> int:
    """The frame slot that ``f`` (for which ``_is_local`` holds) reads."""
    return int(f.src[2:-1])


# what the engine keeps as lists of seats of the table: a variable looping over them is a seat
_SEAT_LISTS = ("S.seated", "list(range(S.n))")


def _join(a: str, b: str) -> str:
    """The type of a value that is either an ``a`` or a ``b`` (the branches of an ``if``, the
    items of a list): ``none`` and the empty list ``[]`` take the other's type."""
    if a == b or b == "none":
        return a
    if a == "none":
        return b
    if a == "list" and b.startswith("list["):
        return b
    if b == "list" and a.startswith("list["):
        return a
    if a.startswith("list[") and b.startswith("list["):
        inner = _join(_elem(a), _elem(b))
        return f"list[{inner}]" if inner != "any" else "list"
    if {a, b} <= {"int", "num"}:
        return "num"
    return "any"


def _is_num(t: str) -> bool:
    return t in ("int", "num", "seat", "any")




def _concat(x: Any, y: Any) -> list:
    if len(x) + len(y) > MAX_COLLECTION:
        raise RuntimeRulesError(f"a list of more than {MAX_COLLECTION} items")
    return nested(list(x) + list(y))  # (which charges the items)


def _add(x: Any, y: Any) -> Any:
    r = x + y
    if type(r) is list or type(r) is str:
        if len(r) > MAX_COLLECTION:
            raise RuntimeRulesError(f"a list or text of more than {MAX_COLLECTION} items")
        if type(r) is list:
            nested(r)  # (which charges the items)
        else:
            charge(len(r))
    return r


def _scalar(t: str) -> bool:
    """Whether the checker knows values of type ``t`` are never lists."""
    return t in ("int", "num", "bool", "card", "seat", "str", "none", "phase")


def _mul(x: Any, y: Any) -> Any:
    if type(x) is int and type(y) is int:
        r = x * y
        if -MAX_NUMBER <= r <= MAX_NUMBER:
            return r
        raise RuntimeRulesError("a number grew beyond 10^30")
    if not isinstance(x, (int, float)) or not isinstance(y, (int, float)):
        raise RuntimeRulesError("'*' needs numbers")
    return x * y


def _result_type(b: Builtin, types: list[str]) -> str:
    """The type of a pure built-in's result, by its record's rule over its arguments' types."""
    if b.ret == "elem":
        if len(types) == 1:
            if b.name in ("top", "bottom") and types[0] == "list[card]":
                return "card"
            return _elem(types[0])
        if b.name in ("top", "bottom") and len(types) == 2:
            return types[0]  # the top n items
        if len(types) > 1 and "fn" not in types:
            return types[0] if len(set(types)) == 1 else "num"
        return "any"
    if b.ret == "same":
        return types[0] if types and types[0].startswith("list") else "list"
    if b.ret == "nested":  # groups of the items
        return f"list[{types[0]}]" if types and types[0].startswith("list[") else "list"
    return b.ret


class Compiler:
    def __init__(self, sym: Symbols) -> None:
        self.sym = sym
        self.errors: list[RulesError] = []
        # what each global is assigned, so that views can show it (a card by name or '?')
        self.global_types: dict[str, set[str]] = {}
        # set when compiled code reads the state: a function that never does is pure, and its
        # results can be remembered (see build._install)
        self.touch = False
        # the generated code's constants and helpers (see codegen.py)
        self.cg = Namespace()
        # set once every function of the rules file is installed: calls can then bind it
        self.functions_final = False
        self._inlining: list[str] = []  # the functions being inlined, innermost last
        self._inline_left = MAX_INLINE_TOTAL  # nodes that may still be inlined
        # calls of the comprehensions being compiled that are computed once per pass of one
        # (see hoist.py): id of the call node -> its frame slot
        self._hoisted: dict[int, int] = {}

    def gen(self, fmt: str, *kids: Any) -> Src:
        """Python source from a fixed template ``fmt`` with the children's source at {0}, {1}..."""
        parts = []
        depth = 0
        for kid in kids:
            src, d = src_of(kid, self.cg)
            parts.append(src)
            depth = max(depth, d)
        return Src(fmt.format(*parts), self.cg, depth + 1)

    def lit(self, src: str) -> Src:
        return Src(src, self.cg)

    def k(self, value: Any) -> str:
        return self.cg.k(value)

    def err(self, msg: str, span: Span) -> None:
        self.errors.append(CheckError(msg, span))

    # ------------------------------------------------------------------ expressions
    def expr(self, n: N.Node, sc: Scope) -> tuple[Fn, str]:
        meth = getattr(self, "e_" + type(n).__name__, None)
        if meth is None:
            self.err(f"{type(n).__name__} cannot be used as a value here", n.span)
            return (lambda S, F: None), "any"
        if self._hoisted and id(n) in self._hoisted:
            return self._hoisted_call(n, sc, meth)
        return meth(n, sc)

    def _hoisted_call(self, n: N.Node, sc: Scope, meth: Any) -> tuple[Fn, str]:
        """A call that does not depend on its comprehension's variables: made the first time
        it is reached in a pass of the comprehension, its slot read after that."""
        slot = self._hoisted.pop(id(n))
        f, t = meth(n, sc)
        return self.gen(f"(F[{slot}] if F[{slot}] is not {self.k(UNSET)} else "
                        f"{self.k(hset)}(F, {slot}, {{0}}))", f), t

    def e_Const(self, n: N.Const, sc: Scope) -> tuple[Fn, str]:
        v = n.value
        t = ("bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "num"
             if isinstance(v, float) else "str" if isinstance(v, str) else "none")
        if v is None or isinstance(v, bool) or (type(v) is int and 0 <= v < 10**15):
            return self.lit(repr(v)), t
        return self.lit(self.k(v)), t

    def e_Name(self, n: N.Name, sc: Scope) -> tuple[Fn, str]:
        name = n.id
        sym = self.sym
        if name in sc.slots:
            return self.lit(f"F[{sc.slots[name]}]"), sc.types.get(name, "any")
        if sc.phase_names and name in sym.phases | {"end_turn"}:
            return self.lit(self.k(name)), "phase"
        if name in SPECIAL:
            if name not in ("suits", "ranks"):
                self.touch = True
            return self._special(name), SPECIAL[name]
        if name in sym.globals or name in sym.zones or name in sym.counters:
            self.touch = True
        if name in sym.globals:
            return self.lit(f"S.g[{sym.globals[name]}]"), "any"
        if name in sym.zones:
            zid, per = sym.zones[name]
            if per:
                self.err(f"'{name}' is a zone of each player: write {name}[seat]", n.span)
                return (lambda S, F: []), "list[card]"
            if name in sym.group_zones:
                return self.lit(f"S.group_list({zid})"), "list[group]"
            return self.lit(f"S.zones[{zid}]"), "list[card]"
        if name in sym.data:
            return self.lit(self.k(sym.data[name])), "any"
        if name in sym.values:
            return self.lit(self.k(sym.values[name])), "table"
        if name in sym.counters:
            return self.lit(f"S.ctr[{sym.counters[name]}]"), "list[int]"
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

    _SPECIAL_SRC: ClassVar[dict[str, str]] = {
        "me": "S.actor", "turn": "S.turn", "dealer": "S.dealer", "phase": "S.phase",
                    "round": "S.round", "turns": "S.turns", "ended_by": "S.ended_by",
                    "players": "S.seated", "num_players": "S.n",
                    "seats": "list(range(S.n))"}

    def _special(self, name: str) -> Src:
        if name in self._SPECIAL_SRC:
            return self.lit(self._SPECIAL_SRC[name])
        if name == "suits":
            return self.lit(self.k(list(dict.fromkeys(s for s in self.sym.card_suit
                                                      if s is not None))))
        return self.lit(self.k(list(dict.fromkeys(self.sym.card_rank))))

    def e_Attr(self, n: N.Attr, sc: Scope) -> tuple[Fn, str]:
        if isinstance(n.obj, N.Name) and n.obj.id == "opt" and "opt" not in sc.slots:
            if n.name not in self.sym.options:
                self.err(f"unknown option '{n.name}'{did_you_mean(n.name, self.sym.options)}",
                         n.name_span or n.span)
                return (lambda S, F: None), "any"
            v = self.sym.options[n.name]
            t = "bool" if isinstance(v, bool) else "num" if isinstance(v, (int, float)) else "str"
            return self.e_Const(N.Const(n.span, v), sc)[0], t
        obj, t = self.expr(n.obj, sc)
        if n.name in CARD_ATTRS and t == "card":
            table = getattr(self.sym, "card_" + n.name)
            return self.gen(self.k(table) + "[{0}]", obj), CARD_ATTRS[n.name]
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

        def attr(o: Any) -> Any:
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

        fa = self.k(attr)
        if ctable is not None and _is_local(obj):
            # mostly a card: look it up inline, call for anything else
            return self.gen(f"({self.k(ctable)}[{{0}}] if type({{0}}) is int and "
                            f"0 <= {{0}} < {len(ctable)} else {fa}({{0}}))", obj), "any"
        return self.gen(fa + "({0})", obj), "any"

    def e_Index(self, n: N.Index, sc: Scope) -> tuple[Fn, str]:
        sym = self.sym
        if isinstance(n.obj, N.Name) and n.obj.id not in sc.slots:
            name = n.obj.id
            idx, _it = self.expr(n.index, sc)
            if name in sym.zones or name in sym.counters:
                self.touch = True
            if name in sym.zones and sym.zones[name][1]:
                base = sym.zones[name][0]
                seat = self._seat_src(idx, name, sc)
                if name in sym.group_zones:
                    return self.gen(f"S.group_list({base} + {seat})", idx), "list[group]"
                return self.gen(f"S.zones[{base} + {seat}]", idx), "list[card]"
            if name in sym.counters:
                ci = sym.counters[name]
                return self.gen(f"S.ctr[{ci}][{self._seat_src(idx, name, sc)}]", idx), "num"
            if name in sym.values:
                # a value table indexed by a card's rank: look it up by card id instead
                if isinstance(n.index, N.Attr) and n.index.name == "rank":
                    cobj, ct = self.expr(n.index.obj, sc)
                    if ct in ("card", "any"):
                        table = sym.card_values[name]
                        return self.gen(self.k(table) + "[{0}]", cobj), "num"
                d = sym.values[name]
                idx = fn_of(idx)
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
        # one call of _index with both parts spliced in (not a closure calling two)
        return self.gen(self.k(_index) + "({0}, {1})", obj, idx), _elem(t)

    def _seat_src(self, idx: Fn, name: str, sc: Scope) -> str:
        """Template text for a seat index: checked, unless the engine guarantees a seat."""
        if isinstance(idx, Src) and (idx.src in ("S.actor", "S.turn", "S.dealer")
                                     or (_is_local(idx) and _slot(idx) in sc.sure)):
            return "{0}"
        check = "_seat({0}, S.n, " + self.k(name) + ")"
        if _is_local(idx):  # check it inline, call only to report
            return "({0} if type({0}) is int and 0 <= {0} < S.n else " + check + ")"
        return check

    def e_Slice(self, n: N.Slice, sc: Scope) -> tuple[Fn, str]:
        obj, t = self.expr(n.obj, sc)
        lo = self.expr(n.lo, sc)[0] if n.lo else self.lit("None")
        hi = self.expr(n.hi, sc)[0] if n.hi else self.lit("None")
        # a slice is a copy: its items are charged to the step's work
        return self.gen(self.k(charged) + "(list({0}[{1}:{2}]))", obj, lo, hi), t

    def e_ListLit(self, n: N.ListLit, sc: Scope) -> tuple[Fn, str]:
        items = [self.expr(x, sc) for x in n.items]
        fs = [f for f, _ in items]
        t = "list"
        if items:
            et = items[0][1]
            for _f, it in items[1:]:
                et = _join(et, it)
            t = f"list[{et}]" if et != "any" else "list"
        src = "[" + ", ".join("{" + str(i) + "}" for i in range(len(fs))) + "]"
        if any(not _scalar(it) for _f, it in items):  # it may hold lists: see nested()
            src = self.k(nested) + "(" + src + ")"
        return self.gen(src, *fs), t

    def e_Comprehension(self, n: N.Comprehension, sc: Scope) -> tuple[Fn, str]:
        saved = dict(sc.slots), dict(sc.types)
        try:
            return self._comprehension(n, sc)
        finally:  # the loop variables end with the comprehension
            sc.slots, sc.types = saved

    def _comprehension(self, n: N.Comprehension, sc: Scope) -> tuple[Fn, str]:
        hoisted = [(id(c), sc.new_slot(f"@hoisted{id(c)}")) for c in invariant_calls(n)]
        self._hoisted.update(hoisted)
        try:
            f, t = self._comprehension_loop(n, sc)
        finally:
            for key, _slot in hoisted:
                self._hoisted.pop(key, None)
        if not hoisted:
            return f, t
        resets = "".join(f"F.__setitem__({slot}, {self.k(UNSET)}) or " for _k, slot in hoisted)
        return self.gen("(" + resets + "{0})", f), t

    def _comprehension_loop(self, n: N.Comprehension, sc: Scope) -> tuple[Fn, str]:
        kids: list[Fn] = []
        parts = []
        span = self.k(n.span)
        slots = []
        for var, it, cond in n.clauses:
            itf, itt = self.expr(it, sc)
            slot = sc.new_slot(var, _elem(itt))
            slots.append(slot)
            if isinstance(itf, Src) and itf.src in _SEAT_LISTS:
                sc.sure.add(slot)
            parts.append(f" for F[{slot}] in _work({{{len(kids)}}}, {span})")
            kids.append(itf)
            if cond is not None:
                parts.append(f" if {{{len(kids)}}}")
                kids.append(self.expr(cond, sc)[0])
        elt, et = self.expr(n.elt, sc)
        kids.append(elt)
        src = f"[{{{len(kids) - 1}}}" + "".join(parts) + "]"
        # a filter ([x for x in xs if ...]) keeps items of a list that is bounded already
        keeps = (len(n.clauses) == 1 and isinstance(n.elt, N.Name)
                 and n.elt.id == n.clauses[0][0])
        if not _scalar(et) and not keeps:  # its items may be lists: see nested()
            src = self.k(nested) + "(" + src + ")"
        return self._localized(self.gen(src, *kids), slots), f"list[{et}]"

    def _localized(self, f: Src, slots: list[int]) -> Src:
        """``f`` with the variables it binds as Python locals where it can (``localize``)."""
        src = localize(f.src, slots)
        if src is None:
            return f
        out = Src(src, self.cg, f.depth)
        out.parts = f.parts
        return out

    def e_Lambda(self, n: N.Lambda, sc: Scope) -> tuple[Fn, str]:
        saved = dict(sc.slots), dict(sc.types)
        slot = sc.new_slot(n.param)
        body_f = self.expr(n.body, sc)[0]
        sc.slots, sc.types = saved
        if isinstance(body_f, Src):
            src, depth = src_of(body_f, self.cg)
            if (body := localize(src, [slot])) is not None:
                # the argument is a parameter of the Python lambda, not stored in the frame
                return Src(f"(lambda _v{slot}: {body})", self.cg, depth + 1), "fn"
            # a Python lambda over the enclosing S and F: it stores its argument in its slot
            return self.gen(f"(lambda _v: F.__setitem__({slot}, _v) or {{0}})", body_f), "fn"
        body = fn_of(body_f)

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
        return self.gen("({1} if {0} else {2})", c, a, b), _join(at, bt)

    def e_Let(self, n: N.Let, sc: Scope) -> tuple[Fn, str]:
        v, vt = self.expr(n.value, sc)
        saved = (sc.slots.get(n.name), sc.types.get(n.name))
        slot = sc.new_slot(n.name, vt)
        body, bt = self.expr(n.body, sc)
        if saved[0] is not None:
            sc.slots[n.name], sc.types[n.name] = saved[0], saved[1] or "any"
        else:
            del sc.slots[n.name]

        # __setitem__ gives None: the value is stored, then the body is the result
        return self.gen(f"(F.__setitem__({slot}, {{0}}) or {{1}})", v, body), bt

    def e_BoolOp(self, n: N.BoolOp, sc: Scope) -> tuple[Fn, str]:
        fs = [self.expr(x, sc)[0] for x in n.values]
        sep = " and " if n.op == "and" else " or "
        fmt = "(" + sep.join("{" + str(i) + "}" for i in range(len(fs))) + ")"
        out = self.gen(fmt, *fs)
        out.parts = (n.op, fs)
        return out, "bool"

    def e_Not(self, n: N.Not, sc: Scope) -> tuple[Fn, str]:
        return self.gen("(not {0})", self.expr(n.operand, sc)[0]), "bool"

    def e_Neg(self, n: N.Neg, sc: Scope) -> tuple[Fn, str]:
        f, t = self.expr(n.operand, sc)
        if not _is_num(t):
            self.err(f"cannot negate {t}", n.span)
        return self.gen("(-{0})", f), t

    def e_BinOp(self, n: N.BinOp, sc: Scope) -> tuple[Fn, str]:
        a, at = self.expr(n.left, sc)
        b, bt = self.expr(n.right, sc)
        op = n.op
        if op == "+" and (at.startswith("list") or bt.startswith("list")):
            return self.gen(self.k(_concat) + "({0}, {1})", a, b), at if at == bt else "list"
        for t, side in ((at, n.left), (bt, n.right)):
            if not _is_num(t):
                self.err(f"'{op}' needs numbers, but this is {t}", side.span)
        t = "int" if at == bt == "int" and op != "/" else "num"
        if op == "+":
            if "any" in (at, bt):  # strings or lists may meet here: keep their size bounded
                return self.gen(self.k(_add) + "({0}, {1})", a, b), t
            return self.gen("({0} + {1})", a, b), t
        if op == "*":
            return self.gen(self.k(_mul) + "({0}, {1})", a, b), t
        if op in ("-", "/", "//", "%"):
            return self.gen("({0} " + op + " {1})", a, b), "num" if op == "/" else t
        raise AssertionError(op)

    def e_Compare(self, n: N.Compare, sc: Scope) -> tuple[Fn, str]:
        fs = [self.expr(x, sc) for x in n.operands]
        ops = n.ops
        if len(ops) == 1:
            (a, _at), (b, bt) = fs
            op = ops[0]
            if op in ("in", "not in") and bt in ("int", "num", "bool", "card", "seat"):
                self.err(f"'{op}' needs a list on its right, not {bt}", n.operands[1].span)
            if op not in _CMP_OPS:  # the grammar's own operators, never other text
                raise AssertionError(op)
            if op in ("in", "not in"):  # a search of a list is charged to the step's work
                if _inline_search(b):
                    # charged(xs), written out (no Python call): xs is read more than once
                    return self.gen(
                        "({0} " + op + " ({1} if type({1}) is not list or (WORK.__setitem__("
                        "0, WORK[0] - len({1})) or WORK[0] >= 0) else _out_of_work()))",
                        a, b), "bool"
                return self.gen("({0} " + op + " " + self.k(charged) + "({1}))", a, b), "bool"
            return self.gen("({0} " + op + " {1})", a, b), "bool"
        # a chain a < b <= c: Python's own chains evaluate each operand once, as promised
        if not all(o in _CMP_OPS[:6] for o in ops):
            raise AssertionError(ops)
        fmt = "({0}" + "".join(f" {o} {{{i + 1}}}" for i, o in enumerate(ops)) + ")"
        return self.gen(fmt, *[f for f, _ in fs]), "bool"

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
        b = BUILTINS.get(name)
        if b is not None:
            if b.meld:
                return self._meld_call(n, b, sc)
            if b.state:
                if b.effect:
                    self.err(f"'{name}' changes the game and can only be used as an effect",
                             n.span)
                return self._state_call(n, b, sc)
            return self._pure_call(n, b, sc)
        known = [k for k in [*sym.functions, *BUILTINS] if "@" not in k]
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
        return fn_of(f)

    def _pure_call(self, n: N.Call, b: Builtin, sc: Scope) -> tuple[Fn, str]:
        self._check_arity(n, b.min_args, b.max_args, b.kwargs)
        if (b.name in ("any", "all") and len(n.args) == 1 and not n.kwargs
                and isinstance(n.args[0], N.Comprehension) and len(n.args[0].clauses) == 1):
            return self._any_all(b.name, n.args[0], sc)
        if b.name in LOOPED and (looped := lambda_loop(self, n, b, sc, _result_type)):
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
        ret = _result_type(b, types)
        if (b.name in ("sum", "max", "min") and len(argfs) == 1 and not kwfs
                and isinstance(n.args[0], N.Comprehension)):
            # a comprehension gives a list and has paid for its loop: no checks needed
            pick = sum if b.name == "sum" else EXTREME_OF[b.name]
            return self.gen(f"{self.k(pick)}({{0}})", *argfs), ret
        if b.name == "size" and len(argfs) == 1 and types[0].startswith("list"):
            return self.gen("len({0})", *argfs), ret
        return self._call_src(self.k(impl), argfs, kwfs), ret

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
            self._melds = _meld_funcs(sym.card_rank, sym.card_suit, sym.card_order,
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
        return self._call_src(self.k(impl), argfs, kwfs), ret

    def _any_all(self, name: str, comp: N.Comprehension, sc: Scope) -> tuple[Fn, str]:
        """any(e for x in xs if c) / all(...) that stop at the first answer."""
        saved = dict(sc.slots), dict(sc.types)
        var, it, cond = comp.clauses[0]
        itf, itt = self.expr(it, sc)
        slot = sc.new_slot(var, _elem(itt))
        if isinstance(itf, Src) and itf.src in _SEAT_LISTS:
            sc.sure.add(slot)
        condf = self.expr(cond, sc)[0] if cond is not None else None
        elt = self.expr(comp.elt, sc)[0]
        sc.slots, sc.types = saved
        kids = [itf] + ([condf] if condf is not None else []) + [elt]
        cond_src = " if {1}" if condf is not None else ""
        span = self.k(comp.span)
        out = self.gen(f"{name}({{{len(kids) - 1}}} for F[{slot}] in _work({{0}}, "
                       f"{span}){cond_src})", *kids)
        out.parts = (name, slot, itf, condf, elt, span)
        return out, "bool"

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
        f = fn_of(f)
        if t in ("group", "any"):
            def group_zone(S: Any, F: list) -> int:
                g = f(S, F)
                if not isinstance(g, Group):
                    raise RuntimeRulesError("expected a zone or a group on the table here")
                return g.zid
            return group_zone, False
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
                argfs.append(self.expr(a, sc)[0])
        kwfs = {k: self.expr(a, sc)[0] for k, a in n.kwargs}
        for k, a in n.kwargs:
            if k == "at" and not (isinstance(a, N.Const) and a.value in ("top", "bottom")):
                self.err("at: takes 'top' or 'bottom'", a.span)
            if k == "face" and not (isinstance(a, N.Const) and a.value in ("up", "down")):
                self.err("face: takes 'up' or 'down'", a.span)
        assert name.isidentifier()  # a key of BUILTINS, never rules text
        return self._call_src("S.fx_" + name, argfs, kwfs), ret

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
        inlined = self._inline(uf, argfs, sc)
        if inlined is not None:
            return inlined, uf.ret
        if self.functions_final and uf.fn is not None:
            return self._call_src(self.k(uf.fn), [self.lit("S"), *argfs], {}), uf.ret
        # uf.fn is looked up at each call: it is installed (and maybe memoised) after compiling
        return self._call_src(self.k(uf) + ".fn", [self.lit("S"), *argfs], {}), uf.ret

    def _inline(self, uf: UserFn, argfs: list[Fn], sc: Scope) -> Src | None:
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
        for p, f in zip(uf.params, argfs):
            if _is_local(f):
                body.slots[p], body.types[p] = _slot(f), "any"  # type: ignore[arg-type]
            else:
                slot = body.new_slot(p)
                setters.append(f"F.__setitem__({slot}, {src_of(f, self.cg)[0]}) or ")
        self._inlining.append(uf.name)
        try:
            fn, _t = self.expr(uf.tree, body)
        finally:
            self._inlining.pop()
        if self.errors or not isinstance(fn, Src) or len(fn.src) > MAX_INLINE_SRC:
            self.errors.clear()
            return None
        sc.n = max(sc.n, body.n)
        if not setters:
            return fn
        src, depth = src_of(fn, self.cg)
        return Src("(" + "".join(setters) + src + ")", self.cg, depth + 1)

    # ------------------------------------------------------------------ statements
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
            f"        raise RuntimeRulesError(f'{{type(e).__name__}}: {{e}}', {k}[_i]) from None",
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
            slot = sc.bind(n.var, _elem(t))
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
            b = BUILTINS.get(call.func)
            user = b is None and (call.func in self.sym.functions or call.func == "super")
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

        if n.index is not None:
            if name in sym.counters:
                idx = self._src(self.expr(n.index, sc)[0])
                r, p = self.cg.temp(), self.cg.temp()
                return [f"{r} = S.ctr[{sym.counters[name]}]", f"{p} = {idx}",
                        update(f"{r}[{p}]")]
            known = list(sym.counters)
            self.err(f"only a counter can be assigned by seat; '{name}' is not one"
                     f"{did_you_mean(name, known)}", n.span)
            return ["pass"]
        if name in sym.globals:
            self.global_types.setdefault(name, set()).add(vt if op == "=" else "num")
            return [update(f"S.g[{sym.globals[name]}]")]
        if name == "dealer" and op == "=":
            # the dealer may be chosen by effects (a draw for the first deal in match.start)
            return [f"S.dealer = _dealer(S, {v})"]
        if name in sym.counters or name in sym.zones or name in SPECIAL or name in sym.values:
            self.err(f"'{name}' cannot be assigned", n.span)
            return ["pass"]
        if op != "=" and name not in sc.slots:
            self.err(f"unknown name '{name}'{did_you_mean(name, list(sym.globals))}", n.span)
        return [update(f"F[{sc.bind(name, vt)}]")]
