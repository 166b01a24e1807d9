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
from itertools import chain
from typing import Any, ClassVar

from . import nodes as N
from .builtins import charged, nested
from .calls import Calls
from .cardgroups import attr_reader
from .codegen import Namespace, Src, fn_of, localize, src_of
from .comprehensions import Comprehensions
from .errors import CheckError, RulesError, RuntimeRulesError, Span, did_you_mean
from .game import FREE, card_kind
from .hoist import UNSET, worth_a_slot
from .limits import (
    MAX_INLINE_TOTAL,
)
from .limits import MAX_LOOP as MAX_LOOP  # re-exported: tests name it here
from .listheld import keep
from .operators import Operators
from .scope import (
    CARD_ATTRS,
    SPECIAL,
    Fn,
    Scope,
    Symbols,
    elem_of,
    flat_attr,
    index_value,
    is_local,
    is_scalar,
    item_field,
    join_src,
    slot_of,
)
from .statements import Statements
from .structured import read_type, record
from .usercalls import UserCalls


class Compiler(Calls, UserCalls, Comprehensions, Statements, Operators):
    def __init__(self, sym: Symbols) -> None:
        self.sym = sym
        self.errors: list[RulesError] = []
        self.warnings: list[RulesError] = []
        self.text_writers: list[Any] = []  # text(...) calls' writers (display.Writer)
        # what each global and counter is assigned, so that views can show it (a card by name
        # or '?') and sampled worlds remap the cards in it (game.card_kind)
        self.global_types: dict[str, set[str]] = {}
        self.counter_types: dict[str, set[str]] = {}
        # set when compiled code reads the state: a function that never does is pure, and its
        # results can be remembered (see build._install)
        self.touch = False
        # set while match.first_dealer is compiled: the built-ins that draw at random while the
        # game is set up (builtins.Builtin.setup) are allowed there alone
        self.setup_calls = False
        # the generated code's constants and helpers (see codegen.py)
        self.cg = Namespace()
        # set once every function of the rules file is installed: calls can then bind it
        self.functions_final = False
        self._inlining: list[str] = []  # the functions being inlined, innermost last
        self._inline_left = MAX_INLINE_TOTAL  # nodes that may still be inlined
        # calls of the comprehensions being compiled that are computed once per pass of one
        # (see hoist.py): id of the call node -> its frame slot
        self._hoisted: dict[int, int] = {}
        # calls of the action's when being compiled that no argument changes (hoist.py): id of
        # the call node -> its frame slot; and the variant names where each other call of a
        # rules function stands (for the functions inlined into the when)
        self._held: dict[int, int] = {}
        self._held_scopes: dict[int, frozenset[str]] = {}
        # the hoisted calls of each comprehension being compiled, innermost last: those found
        # in the bodies of functions inlined into it join its own (``hoist_inlined``)
        self._comp_hoists: list[list[tuple[int, int]]] = []
        self._listing_slots: set[int] = set()  # made once per listing: unset while None
        # calls of a later argument kept per value of one argument (hoist.keyed): id of the
        # call node -> (the frame slot of its dict, the index of that argument)
        self._keyed: dict[int, tuple[int, int]] = {}
        self._share: Any = None  # the whens of a phase being compiled: hoist.SharedCalls
        self._kept: dict[int, tuple[str, ...]] = {}  # listheld.kept_parts of a function's body
        self._hoists_used: set[int] = set()  # the slots hoisted code was given

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
        if self._held and id(n) in self._held:
            return self._held_call(n, sc, meth)
        if self._kept and id(n) in self._kept:  # (listheld.py)
            return keep(self, n, sc, meth, self._kept.pop(id(n)))
        return meth(n, sc)

    def _hoisted_call(self, n: N.Node, sc: Scope, meth: Any) -> tuple[Fn, str]:
        """A call that does not depend on its comprehension's variables: made the first time
        it is reached in a pass of the comprehension, its slot read after that."""
        slot = self._hoisted.pop(id(n))
        f, t = meth(n, sc)
        if not worth_a_slot(f):  # as cheap as reading the slot: left where it is
            return f, t
        self._hoists_used.add(slot)
        unset = "None" if slot in self._listing_slots else self.k(UNSET)
        # stored and read back by a method of the frame, not a call of a Python function
        return self.gen(f"(F[{slot}] if F[{slot}] is not {unset} else "
                        f"(F.__setitem__({slot}, {{0}}) or F[{slot}]))", f), t

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
        if name in sc.slots:  # (a parameter given `me` reads it: UserCalls._inline)
            s = sc.slots[name]
            return self.lit(sc.alias.get(s) or f"F[{s}]"), sc.types.get(name, "any")
        if sc.phase_names and name in sym.phases | {"end_turn"}:
            return self.lit(self.k(name)), "phase"
        if name == "me" and sc.house:
            self.err("a house phase is played by the rules, by no seat: 'me' means nothing "
                     "here; name the zones and counters it uses (a shared zone for the "
                     "house's cards)", n.span)
        if name in SPECIAL and not (name == "direction" and (
                name in sym.globals or name in sym.zones or name in sym.counters
                or name in sym.data or name in sym.values)):  # declared before it was special
            if name not in ("suits", "ranks"):
                self.touch = True
            return self._special(name), SPECIAL[name]
        if name in sym.globals or name in sym.zones or name in sym.counters:
            self.touch = True
        if name in sym.globals:
            return self.lit(f"S.g[{sym.globals[name]}]"), read_type(
                sym.global_shapes.get(name), "any")
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
            return self.lit(f"S.ctr[{sym.counters[name]}]"), \
                f"list[{read_type(sym.counter_shapes.get(name), 'int')}]"
        if name == "opt":
            self.err("'opt' needs an option's name: opt.NAME", n.span)
            return (lambda S, F: None), "any"
        if sc.phase_names:
            self.err(f"next: '{name}' is not a phase{did_you_mean(name, sym.phases)}; "
                     f"expected one of {', '.join(sorted(sym.phases))} or end_turn", n.span)
            return (lambda S, F: None), "any"
        # lazy: did_you_mean looks at a bounded number of them (a list of all of them, made
        # for each of thousands of unknown names, was itself quadratic)
        # the words that are values (`noen`) are slips for names too
        known = chain(sc.slots, SPECIAL, sym.globals, sym.zones, sym.data, sym.values,
                      sym.counters, ("none", "true", "false"))
        self.err(f"unknown name '{name}'{did_you_mean(name, known)}", n.span)
        return (lambda S, F: None), "any"

    _SPECIAL_SRC: ClassVar[dict[str, str]] = {
        "me": "S.actor", "turn": "S.turn", "dealer": "S.dealer", "phase": "S.phase",
                    "round": "S.round", "turns": "S.turns", "ended_by": "S.ended_by",
                    "players": "S.seated", "num_players": "S.n",
                    "seats": "list(range(S.n))",
                    "direction": "('clockwise' if S.direction == 1 else 'anticlockwise')"}

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
        own = self.sym.card_attrs  # the deck's own attributes (decks.py)
        ix = n.obj  # xs[i].f, a field of a record in a list: read by one call (item_field)
        fuse = (isinstance(ix, N.Index) and n.name not in own and n.name not in CARD_ATTRS
                and not (isinstance(ix.obj, N.Name) and ix.obj.id not in sc.slots)
                and id(ix) not in self._hoisted
                and id(ix) not in self._held)
        if fuse:
            o, ot = self.expr(ix.obj, sc)
            i = self.expr(ix.index, sc)[0]
            obj, t = self._index_tail(ix, o, ot, i)
        else:
            obj, t = self.expr(n.obj, sc)
        if n.name in own and t == "card":
            return self.gen(self.k(own[n.name][0]) + "[{0}]", obj), own[n.name][1]
        if n.name in CARD_ATTRS and t == "card":
            table = getattr(self.sym, "card_" + n.name)
            return self.gen(self.k(table) + "[{0}]", obj), CARD_ATTRS[n.name]
        if t in ("card",):
            names = [*CARD_ATTRS, *own]
            self.err(f"a card has no attribute '{n.name}'{did_you_mean(n.name, names)}"
                     f"; it has {', '.join(names)}", n.name_span or n.span)
            return (lambda S, F: None), "any"
        if t == "group" and n.name not in ("owner", "number"):
            self.err(f"a group on the table has 'owner' and 'number', not '{n.name}'", n.span)
            return (lambda S, F: None), "any"
        if t not in ("any", "record", "group"):
            self.err(f"'.{n.name}' needs a card or a record, not {t}", n.span)
            return (lambda S, F: None), "any"
        key = n.name
        ctable = own[key][0] if key in own else \
            getattr(self.sym, "card_" + key) if key in CARD_ATTRS else None

        attr = attr_reader(key, ctable)
        if fuse and t in ("any", "record"):
            return self.gen(self.k(item_field(attr, key)) + "({0}, {1})", o, i), "any"
        fa = self.k(attr)
        if ctable is not None and is_local(obj):
            # mostly a card: look it up inline, call for anything else
            return flat_attr(self.gen(f"({self.k(ctable)}[{{0}}] if type({{0}}) is int and "
                                      f"0 <= {{0}} < {len(ctable)} else {fa}({{0}}))", obj),
                             ctable, self.k, fa, obj), "any"
        if ctable is None and is_local(obj):  # mostly a record: its field read inline
            kk = self.k(key)
            return self.gen(f"({{0}}[{kk}] if type({{0}}) is dict and {kk} in {{0}} else "
                            f"{fa}({{0}}))", obj), "any"
        return flat_attr(self.gen(fa + "({0})", obj), ctable, self.k, fa, obj, False), "any"

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
                return self.gen(f"S.ctr[{ci}][{self._seat_src(idx, name, sc)}]", idx), \
                    read_type(sym.counter_shapes.get(name), "num")
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
        return self._index_tail(n, obj, t, self.expr(n.index, sc)[0])

    def _index_tail(self, n: N.Index, obj: Fn, t: str, idx: Fn) -> tuple[Fn, str]:
        """``obj[idx]`` of a list, record or text (their parts compiled, of type ``t``)."""
        if t in ("int", "num", "bool", "card", "seat", "none"):
            self.err(f"cannot index {t} with [...]", n.span)
        # one call of index_value with both parts spliced in (not a closure calling two)
        iv = self.k(index_value)
        if is_local(obj) and isinstance(idx, Src) and re.fullmatch(r"\d{1,9}", idx.src):
            # an item of a list read inline where it is there (l[0]), else as before
            return self.gen(f"({{0}}[{{1}}] if type({{0}}) is list and len({{0}}) > {{1}} "
                            f"else {iv}({{0}}, {{1}}))", obj, idx), elem_of(t)
        return self.gen(iv + "({0}, {1})", obj, idx), elem_of(t)

    def _seat_src(self, idx: Fn, name: str, sc: Scope) -> str:
        """Template text for a seat index: checked, unless the engine guarantees a seat."""
        if isinstance(idx, Src) and (idx.src in ("S.actor", "S.turn", "S.dealer")
                                     or (is_local(idx) and slot_of(idx) in sc.sure)):
            return "{0}"
        check = "_seat({0}, S.n, " + self.k(name) + ")"
        if is_local(idx):  # check it inline, call only to report
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
                et = join_src(et, it)
            t = f"list[{et}]" if et != "any" else "list"
        src = "[" + ", ".join("{" + str(i) + "}" for i in range(len(fs))) + "]"
        if any(not is_scalar(it) for _f, it in items):  # it may hold lists: see nested()
            src = self.k(nested) + "(" + src + ")"
        return self.gen(src, *fs), t

    def e_RecordLit(self, n: N.RecordLit, sc: Scope) -> tuple[Fn, str]:
        seen: set[str] = set()
        for name, value in n.fields:
            if name in seen:
                self.err(f"field '{name}' is given twice in this record", value.span)
            seen.add(name)
        items = [self.expr(v, sc) for _name, v in n.fields]
        # (the braces of the dict doubled: gen() fills in {0}, {1}...)
        src = "{{" + ", ".join(f"{name!r}: {{{i}}}" for i, (name, _v) in enumerate(n.fields)) \
            + "}}"
        # a record whose fields are never cards is shown as it is (game.card_kind)
        t = "record" if all(card_kind(ft) == FREE for _f, ft in items) else "any"
        return self.gen(self.k(record) + "(" + src + ")", *[f for f, _ in items]), t

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
