"""Compiling operators: ``if``/``and``/``or``/``not``, arithmetic and comparisons, with the
parts that are fixed when the game is compiled worked out then.

A mixin of ``compile.Compiler`` (its ``expr``, ``gen``, ``k``, ``lit``, ``err``). Options are
constants of the compiled game (``opt.x`` compiles to its value), so ``opt.scoring ==
'short'`` or ``opt.cap == 0`` is known before anyone plays: a comparison of constants is
compiled to its answer, an ``if`` on a constant to the branch it takes, and ``and``/``or``
lose the constants that cannot decide them (and what follows one that does, which Python
would never evaluate). Only comparisons that look at numbers and short texts are worked out
(nothing they do is charged to the step's work, nor can fail), so the values, the errors and
the work counted are those of the code without the folding.
"""

from __future__ import annotations

import re
from typing import Any

from . import nodes as N
from .builtins import SHORT_TEXT, ch, charged, contains
from .codegen import Src
from .limits import MAX_NUMBER
from .scope import (
    CMP_OPS,
    Fn,
    Scope,
    add_values,
    cards_sum,
    concat,
    concat_cards,
    flat_search,
    inline_search,
    is_local,
    is_num,
    join_src,
    mul_by_constant,
    mul_values,
    never_equal,
)

# the types whose values one comparison looks at in one go (a text of these types is a card's
# rank or suit, a phase's name or a constant of the file); other values may be lists, compared
# item by item, which is charged as work
FLAT_TYPES = frozenset({"int", "num", "bool", "card", "seat", "none", "phase", "str"})

NOT_CONST = object()  # what ``const_of`` gives for an expression whose value is not fixed
_NUMBER = re.compile(r"\d+")


def _cheap(f: Any) -> bool:
    """Whether compiled code ``f`` just reads a variable or a global (cheap to read twice)."""
    return is_local(f) or (isinstance(f, Src) and re.fullmatch(r"S\.g\[\d+\]", f.src)
                           is not None)


def const_of(f: Any) -> Any:
    """The value of compiled code ``f`` where it is a constant a comparison can look at
    without charging work or failing (a number, a truth value, none, a short text),
    ``NOT_CONST`` otherwise."""
    if not isinstance(f, Src):
        return NOT_CONST
    s = f.src
    if s in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[s]
    if _NUMBER.fullmatch(s):
        return int(s)
    if s.startswith("_k") and s[2:].isdigit():
        v = f.ns.ns.get(s, NOT_CONST)
        if type(v) in (int, float, bool) or (isinstance(v, str) and len(v) <= SHORT_TEXT and (
                type(v).__eq__ is str.__eq__ and type(v).__lt__ is str.__lt__)):
            return v  # (a text of the file knows its place in it: compared as text)
    return NOT_CONST


def _plain(v: Any) -> bool:
    """Whether ``ch`` charges nothing for the constant ``v``."""
    return type(v) in (int, float, bool, type(None), str)


def _folded(values: list[Any], ops: list[str]) -> Any:
    """The answer of the comparison chain ``values`` joined by ``ops`` where Python gives it
    as the generated code would (numbers with numbers, texts with texts; ``==`` and ``!=``
    of any of them); ``NOT_CONST`` where it is left to run."""
    nums = all(type(v) in (int, float, bool) for v in values)
    texts = all(isinstance(v, str) for v in values)
    if not (nums or texts or all(o in ("==", "!=") for o in ops)):
        return NOT_CONST
    out = True
    for o, a, b in zip(ops, values, values[1:]):
        r = (a == b if o == "==" else a != b if o == "!=" else a < b if o == "<"
             else a <= b if o == "<=" else a > b if o == ">" else a >= b)
        out = out and r
    return out


class Operators:
    """The compiler's operators (see the module docstring)."""

    def e_IfExpr(self, n: N.IfExpr, sc: Scope) -> tuple[Fn, str]:
        c = self.expr(n.cond, sc)[0]
        a, at = self.expr(n.then, sc)
        b, bt = self.expr(n.orelse, sc)
        if (v := const_of(c)) is not NOT_CONST:  # the branch it takes (the other checked)
            return (a if v else b), join_src(at, bt)
        return self.gen("({1} if {0} else {2})", c, a, b), join_src(at, bt)

    def e_BoolOp(self, n: N.BoolOp, sc: Scope) -> tuple[Fn, str]:
        fs = _kept(n.op, [self.expr(x, sc)[0] for x in n.values])
        if len(fs) == 1:  # (false or x) is x
            return fs[0], "bool"
        sep = " and " if n.op == "and" else " or "
        fmt = "(" + sep.join("{" + str(i) + "}" for i in range(len(fs))) + ")"
        out = self.gen(fmt, *fs)
        out.parts = (n.op, fs)
        return out, "bool"

    def e_Not(self, n: N.Not, sc: Scope) -> tuple[Fn, str]:
        f = self.expr(n.operand, sc)[0]
        if (v := const_of(f)) is not NOT_CONST:
            return self.lit(repr(not v)), "bool"
        out = self.gen("(not {0})", f)
        out.parts = ("not", [f])  # a when's `not any(...)` a loop too (codegen.cond_lines)
        return out, "bool"

    def e_Neg(self, n: N.Neg, sc: Scope) -> tuple[Fn, str]:
        f, t = self.expr(n.operand, sc)
        if not is_num(t):
            self.err(f"cannot negate {t}", n.span)
        return self.gen("(-{0})", f), t

    def e_BinOp(self, n: N.BinOp, sc: Scope) -> tuple[Fn, str]:
        a, at = self.expr(n.left, sc)
        b, bt = self.expr(n.right, sc)
        op = n.op
        if op == "+" and (at.startswith("list") or bt.startswith("list")):
            if cards_sum(a, self.k) and cards_sum(b, self.k):  # zones' cards: no list inside
                return self.gen(self.k(concat_cards) + "({0}, {1})", a, b), "list[card]"
            return self.gen(self.k(concat) + "({0}, {1})", a, b), \
                join_src(at, bt) if at.startswith("list") and bt.startswith("list") else "list"
        for t, side in ((at, n.left), (bt, n.right)):
            if not is_num(t):
                self.err(f"'{op}' needs numbers, but this is {t}", side.span)
        t = "int" if at == bt == "int" and op != "/" else "num"
        if op == "+":
            # strings or lists may meet here: keep their size bounded (a number added to
            # anything gives a number or fails as add_values would)
            if "any" in (at, bt) and not {at, bt} & {"int", "num"}:
                return self.gen(self.k(add_values) + "({0}, {1})", a, b), t
            return self.gen("({0} + {1})", a, b), t
        if op == "*":
            if _sized_times_constant(n, a, b, self.sym.functions):
                return self.gen("({0} * {1})", a, b), t
            consts = (const_of(a), const_of(b))
            fmt = mul_by_constant(a, b, self.k(mul_values), consts, self.k(float) if
                                  float in map(type, consts) else "")
            return self.gen(fmt or self.k(mul_values) + "({0}, {1})", a, b), t
        if op in ("-", "/", "//", "%"):
            return self.gen("({0} " + op + " {1})", a, b), "num" if op == "/" else t
        raise AssertionError(op)

    def e_Compare(self, n: N.Compare, sc: Scope) -> tuple[Fn, str]:
        fs = [self.expr(x, sc) for x in n.operands]
        ops = n.ops
        self.warnings.extend(never_equal(n, [t for _, t in fs]))
        values = [const_of(f) for f, _t in fs]
        if (all(v is not NOT_CONST for v in values) and all(o in CMP_OPS[:6] for o in ops)
                and all(fs[i - 1][1] in FLAT_TYPES or fs[i][1] in FLAT_TYPES  # ch() charges
                        or (_plain(values[i - 1]) and _plain(values[i]))
                        for i in range(1, len(fs)))
                and (r := _folded(values, list(ops))) is not NOT_CONST):
            return self.lit(repr(r)), "bool"
        if len(ops) == 1:
            (a, at), (b, bt) = fs
            op = ops[0]
            if op in ("in", "not in") and bt in ("int", "num", "bool", "card", "seat"):
                self.err(f"'{op}' needs a list on its right, not {bt}", n.operands[1].span)
            if op not in CMP_OPS:  # the grammar's own operators, never other text
                raise AssertionError(op)
            if op in ("in", "not in") and at not in FLAT_TYPES:
                # a list, text or record searched for: compared item by item, and charged
                return self.gen(flat_search(a, b, op, self.k) or ("(not " if op == "not in"
                                else "(") + self.k(contains) + "({0}, {1}))", a, b), "bool"
            if op in ("in", "not in"):  # a search of a list is charged to the step's work
                if inline_search(b):
                    # charged(xs), written out (no Python call): xs is read more than once
                    return self.gen(
                        "({0} " + op + " ({1} if type({1}) is not list or (WORK.__setitem__("
                        "0, WORK[0] - len({1})) or WORK[0] >= 0) else _out_of_work()))",
                        a, b), "bool"
                return self.gen("({0} " + op + " " + self.k(charged) + "({1}))", a, b), "bool"
        # a chain a < b <= c: Python's own chains evaluate each operand once, as promised
        if not all(o in CMP_OPS[:6] for o in ops):
            raise AssertionError(ops)
        # two values that may both be lists (texts, records) are compared item by item: the
        # right one's items are charged (no comparison looks at more than either side holds)
        # (a variable is read twice instead: a number, the usual case, needs no call)
        chk = self.k(ch)
        if len(fs) == 2 and (split := _flat_split(fs, ops[0], chk)):
            return self.gen(split, *[f for f, _ in fs]), "bool"
        parts = [f"{{{i}}}" for i in range(len(fs))]
        for i in range(1, len(fs)):
            if fs[i - 1][1] in FLAT_TYPES or fs[i][1] in FLAT_TYPES:
                continue
            k = i - 1 if len(fs) == 2 and not _cheap(fs[i][0]) and _cheap(fs[0][0]) else i
            parts[k] = (f"({{{k}}} if type({{{k}}}) is int or type({{{k}}}) is str and "
                        f"len({{{k}}}) <= {SHORT_TEXT} else {chk}({{{k}}}))"  # ch's no charge
                        if _cheap(fs[k][0]) else f"{chk}({{{k}}})")
        fmt = "(" + parts[0] + "".join(f" {o} {p}" for o, p in zip(ops, parts[1:])) + ")"
        return self.gen(fmt, *[f for f, _ in fs]), "bool"


def _flat_split(fs: list[tuple[Fn, str]], op: str, chk: str) -> str:
    """``a OP b`` where one side is a card's attribute read inline from a table of whole
    numbers and short texts (``scope.flat_attr``) and the other a variable that may be a
    list: the comparison written in each branch of the read. For a card, the table's value
    (a number or a short text: a comparison looks at none of the other side's items, as
    where either side's type is flat) is compared with the variable as it is, with no
    check of it per comparison (``count(h, c -> c.rank == r)``: ~15 bytecodes a card);
    for anything else, as before. '' where it does not apply."""
    (a, _), (b, _) = fs
    side = 0 if isinstance(a, Src) and a.flat and a.flat[1] is not None else \
        1 if isinstance(b, Src) and b.flat and b.flat[1] is not None else -1
    if side < 0:
        return ""
    other = 1 - side
    f, t = fs[other]
    if t in FLAT_TYPES or not _cheap(f) or fs[side][1] in FLAT_TYPES:
        return ""
    table, o, n, fa, _obj = fs[side][0].flat
    k = other
    guarded = (f"({{{k}}} if type({{{k}}}) is int or type({{{k}}}) is str and "
               f"len({{{k}}}) <= {SHORT_TEXT} else {chk}({{{k}}}))")
    card, fell = f"{table}[{o}]", f"{fa}({o})"
    if side == 0:
        fast, slow = f"{card} {op} {{1}}", f"{fell} {op} {guarded}"
    else:
        fast, slow = f"{{0}} {op} {card}", f"{guarded} {op} {fell}"
    return f"(({fast}) if type({o}) is int and 0 <= {o} < {n} else ({slow}))"


def _kept(op: str, fs: list[Fn]) -> list[Fn]:
    """The operands of ``and``/``or`` that can matter: a constant that cannot decide it is
    dropped (``true and x`` is ``x``) unless it is the last, one that decides it is the last
    kept (Python evaluates nothing after it)."""
    out = []
    for i, f in enumerate(fs):
        v = const_of(f)
        if v is NOT_CONST:
            out.append(f)
        elif bool(v) == (op == "or"):  # it decides: what follows is never evaluated
            out.append(f)
            break
        elif i == len(fs) - 1:
            out.append(f)
    return out


def _sized_times_constant(n: N.BinOp, a: Any, b: Any, functions: Any) -> bool:
    """``size(x) * k`` (either way round) with ``k`` a whole number written out and small
    enough that the product stays within 10^30 (``MAX_NUMBER``) for any list or text that can
    be held in memory (under 10^9 items): a plain product, no ``mul_values`` check. So is
    ``size(x) * size(y)`` (under 10^18)."""
    def sized(e: N.Node) -> bool:
        return (isinstance(e, N.Call) and e.func == "size" and "size" not in functions
                and len(e.args) == 1 and not e.kwargs)

    if sized(n.left) and sized(n.right):
        return True
    for side, other in ((n.left, b), (n.right, a)):
        if sized(side) and isinstance(other, Src):
            m = re.fullmatch(r"\(?(-?\d+)\)?", other.src)
            if m is not None and abs(int(m.group(1))) <= MAX_NUMBER // 10**9:
                return True
    return False
