"""What the compiler works with: the rules file's symbols, the scopes of local names, the types
it infers, and the small operations generated code calls for ``+``, ``*`` and indexing.

``Symbols`` are the declared names of one rules file (zones, counters, globals, value tables,
functions); a ``Scope`` maps the local names of one piece of rules text to slots of its frame;
a ``UserFn`` is one function or procedure of the rules file. Types are strings (``int``,
``card``, ``list[seat]``, ``any``...), inferred bottom-up and loosely.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .builtins import (
    SHORT_TEXT,
    Builtin,
    _range,
    charge,
    contains,
    nested,
)
from .codegen import Src
from .errors import CheckWarning, RuntimeRulesError, Span
from .limits import (
    MAX_COLLECTION,
    MAX_NUMBER,
)
from .limits import MAX_LOOP as MAX_LOOP  # re-exported: tests name it here
from .runtime import WORK, out_of_work

Fn = Callable[[Any, list], Any]

CARD_ATTRS = {"rank": "str", "suit": "str", "color": "str", "order": "int", "joker": "bool",
              "name": "str"}
SPECIAL = {
    "me": "seat", "turn": "seat", "dealer": "seat", "phase": "str", "round": "int",
    "turns": "int", "ended_by": "str", "players": "list[seat]", "num_players": "int",
    "suits": "list[str]", "ranks": "list[str]", "seats": "list[seat]", "direction": "str",
}
CMP_OPS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


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
    # the comprehensions of its body compiled as one pass over their list (``id`` of the
    # node: ``cardgroups.card_sums``), each one loop for ``functions._one_pass``
    one_pass: set[int] = field(default_factory=set)
    # its body charges what its memo, paused for good, would (functions.install): no memo
    charges_key: bool = False


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
    team_counters: frozenset[str] = frozenset()  # counters a team's seats share (teams.py)
    # the deck's own attributes (deck.attributes): name -> (value per card id, checker type)
    card_attrs: dict[str, tuple[tuple, str]] = field(default_factory=dict)
    # the shape of each counter's and global's starting value where its form shows it (a list,
    # a record, a number: structured.shape_of), so that reading one is typed by it
    counter_shapes: dict[str, str | None] = field(default_factory=dict)
    global_shapes: dict[str, str | None] = field(default_factory=dict)


class Scope:
    """Locals of one compiled unit (a function body or a top-level string)."""

    def __init__(self, params: tuple[str, ...] = (), in_action: bool = False,
                 phase_names: bool = False, fn: UserFn | None = None,
                 house: bool = False) -> None:
        self.slots: dict[str, int] = {p: i for i, p in enumerate(params)}
        self.types: dict[str, str] = {p: "any" for p in params}
        self.n = len(params)
        # slots that only ever hold a seat of the table (the variable of a comprehension
        # over players or seats): indexing a zone or counter by them needs no check
        self.sure: set[int] = set()
        # slots of parameters that read a value fixed while the expression runs in their
        # place, its source instead of the slot (``ALIASED``; UserCalls._inline)
        self.alias: dict[int, str] = {}
        self.in_action = in_action
        self.house = house  # an action of a house phase, which has no seat as ``me``
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


def index_value(o: Any, k: Any) -> Any:
    """``o[k]`` of rules text: a bad index or value is a rules error."""
    try:
        return o[k]
    except (IndexError, KeyError):
        raise RuntimeRulesError(f"index {k!r} is out of range") from None
    except TypeError:
        raise RuntimeRulesError("cannot index this value") from None


def item_field(attr: Callable[[Any], Any], key: str) -> Callable[[Any, Any], Any]:
    """``xs[i].key`` as one call, not ``attr(index_value(xs, i))``: a record's field in a list
    read in place, anything else as before (the same errors, in the same order)."""
    def field(o: Any, k: Any) -> Any:
        if type(o) is list and type(k) is int:
            try:
                r = o[k]
            except IndexError:
                raise RuntimeRulesError(f"index {k!r} is out of range") from None
            if type(r) is dict and key in r:
                return r[key]
            return attr(r)
        return attr(index_value(o, k))
    return field


def elem_of(t: str) -> str:
    if t.startswith("list[") and t.endswith("]"):
        return t[5:-1]
    return "any"


def is_local(f: Any) -> bool:
    """Whether compiled code ``f`` just reads a frame slot (cheap to read twice)."""
    return isinstance(f, Src) and re.fullmatch(r"F\[\d+\]", f.src) is not None


def inline_search(f: Any) -> bool:
    """Whether ``x in f`` charges its search inline (``f`` is read more than once then): a
    frame slot, or the state's list of the seats in play (``players``: a plain attribute)."""
    return is_local(f) or (isinstance(f, Src) and f.src in ("S.seated", "S.active"))


def flat_table(table: Any) -> bool:
    """Whether every value of a card attribute's table is a whole number or a short text."""
    return all(type(v) is int or (type(v) is str and len(v) <= SHORT_TEXT) for v in table)


def flat_attr(out: Src, table: Any, k: Callable[[Any], str], fa: str, obj: Any,
              inline: bool = True) -> Src:
    """``out``, a card's attribute read of ``obj`` (inline, or by ``fa`` of any value where
    not ``inline``), marked ``flat`` where its table holds only whole numbers and short
    texts (for ``flat_search``)."""
    if table is not None and flat_table(table) and isinstance(obj, Src):
        out.flat = (k(table), obj.src if inline else None, len(table), fa, obj)
    return out


def flat_search(a: Any, b: Any, op: str, k: Callable[[Any], str]) -> str:
    """``a in b`` ({0} in {1}) of a card's attribute marked ``flat``: for a card, its table's
    value searched by ``search_flat`` (no checks of it), anything else through
    ``contains(attr(o), b)`` as before (``k``: a constant's name); '' where it does not
    apply. An attribute of a value that is no local is read in ``search_attr``, where ``b``
    is a local (read before the attribute then, which cannot fail)."""
    if not (isinstance(a, Src) and a.flat):
        return ""
    table, o, n, fa, obj = a.flat
    neg = "not " if op == "not in" else ""
    if o is None:  # the value's source once, where {0} (the whole reading) stood
        if not inline_search(b):
            return ""
        src = obj.src.replace("{", "{{").replace("}", "}}")  # a template for Compiler.gen
        return f"({neg}{k(search_attr)}({table}, {n}, {fa}, {src}, {{1}}))"
    search, fn = k(search_flat), k(contains)
    return (f"({neg}{search}({table}[{o}], {{1}}) if type({o}) is int and 0 <= {o} < {n} "
            f"else {neg}{fn}({fa}({o}), {{1}}))")


def search_attr(table: Any, n: int, fa: Any, o: Any, xs: Any) -> bool:
    """``contains(fa(o), xs)`` (``fa``: the attribute's reader) with a card's value read from
    its ``table`` (whole numbers and short texts) and searched by ``search_flat``."""
    if type(o) is int and 0 <= o < n:
        return search_flat(table[o], xs)
    return contains(fa(o), xs)


def search_flat(x: Any, xs: Any) -> bool:
    """``contains(x, xs)`` of a whole number or a short text ``x`` (a card's attribute from a
    table holding only those), without its checks of ``x``: the same charge and answer."""
    if type(xs) is list:
        WORK[0] -= len(xs)
        if WORK[0] < 0:
            out_of_work()
        return x in xs
    return contains(x, xs)


def slot_of(f: Src) -> int:
    """The frame slot that ``f`` (for which ``is_local`` holds) reads."""
    return int(f.src[2:-1])


# what a parameter of an inlined function may read in place of its slot: the seat to act,
# whose turn it is, the dealer (seats: the engine checks each as it sets it, and nothing an
# expression does changes them) and constants written out
ALIASED = re.compile(r"S\.actor|S\.turn|S\.dealer|\d+|True|False|None|_k\d+")


# what the engine keeps as lists of seats of the table: a variable looping over them is a seat
SEAT_LISTS = ("S.seated", "list(range(S.n))")


def work_range(a: Any, span: Any) -> Any:
    """A loop over ``range(a)``: ``work(_range(a), span)`` (both charges, the same checks and
    errors) with no list made for the numbers (a small range's numbers are a tuple made once:
    making a range object costs more than the loop over it)."""
    if type(a) is int and 0 <= a <= MAX_COLLECTION:  # _range's own fast path
        w = WORK[0] - a
        if w < a:  # one of the two charges runs out: each in turn, for its own error
            WORK[0] = w
            if w < 0:
                out_of_work()
            WORK[0] -= a
            out_of_work(span)
        WORK[0] = w - a
        return _SMALL_RANGES[a] if a < 16 else range(a)
    xs = _range(a)
    WORK[0] -= len(xs)
    if WORK[0] < 0:
        out_of_work(span)
    return xs


_SMALL_RANGES = tuple(tuple(range(a)) for a in range(16))


def join_src(a: str, b: str) -> str:
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
        inner = join_src(elem_of(a), elem_of(b))
        return f"list[{inner}]" if inner != "any" else "list"
    if {a, b} <= {"int", "num"}:
        return "num"
    return "any"


def is_num(t: str) -> bool:
    return t in ("int", "num", "seat", "any")


def never_equal(n: Any, types: list[str]) -> list[CheckWarning]:
    """A number compared with text (`hand_value(h) == '31'`) is never equal: such a
    condition never holds, or always does, which is almost always a slip (``n``: a
    ``Compare``, ``types``: its operands' types)."""
    out: list[CheckWarning] = []
    for i, op in enumerate(n.ops):
        pair = {types[i], types[i + 1]}
        if op in ("==", "!=") and "str" in pair and pair & {"int", "num"}:
            side = n.operands[i + 1] if types[i + 1] == "str" else n.operands[i]
            lit = getattr(side, "value", None)
            fix = (f" (write {lit}, not '{lit}')" if isinstance(lit, str)
                   and lit.lstrip("-").replace(".", "", 1).isdigit() else "")
            out.append(CheckWarning(
                f"a number compared with text is never equal: this '{op}' is always "
                f"{'false' if op == '==' else 'true'}{fix}", side.span))
    return out




def concat(x: Any, y: Any) -> list:
    if len(x) + len(y) > MAX_COLLECTION:
        raise RuntimeRulesError(f"a list of more than {MAX_COLLECTION} items")
    if type(x) is list and type(y) is list:  # (two lists: one new list, no copies first)
        return nested(x + y)
    return nested(list(x) + list(y))  # (which charges the items)


def concat_cards(x: list, y: list) -> list:
    """``concat`` of two lists of cards (zones read whole, or such sums: ``cards_sum``): no
    list is inside, so ``nested``'s count is the length; the same charge and errors."""
    n = len(x) + len(y)
    if n > MAX_COLLECTION:
        raise RuntimeRulesError(f"a list of more than {MAX_COLLECTION} items")
    WORK[0] -= n
    if WORK[0] < 0:
        out_of_work()
    return x + y


def cards_sum(f: Any, k: Callable[[Any], str]) -> bool:
    """Whether compiled ``f`` is a zone's cards read whole or a ``concat_cards`` of such
    (``k``: a constant's name)."""
    return isinstance(f, Src) and (one_call(f.src, "S.zones[", "[]")
                                   or one_call(f.src, k(concat_cards) + "("))


def one_call(src: str, head: str, brackets: str = "()") -> bool:
    """Whether ``src`` is one call ``head...)`` whose argument list runs to its end (or one
    subscript ``head...]``, with ``brackets`` "[]")."""
    opening, closing = brackets
    if not (src.startswith(head) and src.endswith(closing)):
        return False
    depth = 1
    for ch in src[len(head):-1]:
        depth += (ch == opening) - (ch == closing)
        if depth == 0:
            return False
    return depth == 1


def add_values(x: Any, y: Any) -> Any:
    r = x + y
    if type(r) is list or type(r) is str:
        if len(r) > MAX_COLLECTION:
            raise RuntimeRulesError(f"a list or text of more than {MAX_COLLECTION} items")
        if type(r) is list:
            nested(r)  # (which charges the items)
        else:
            charge(len(r))
    return r


def is_scalar(t: str) -> bool:
    """Whether the checker knows values of type ``t`` are never lists."""
    return t in ("int", "num", "bool", "card", "seat", "str", "none", "phase")


def mul_by_constant(a: Any, b: Any, k: str, values: tuple = (None, None), fl: str = "") -> str:
    """``a * b`` where one side is a number written out (in the source, or kept as a
    constant whose value is in ``values``: ``-4``, ``0.5``) and the other is read cheaply
    twice (``is_local``): ``mul_values`` written out for a whole number within the bound that
    keeps the product within 10^30 (the same result), a call for anything else (``k``:
    ``mul_values``'s name); for a decimal number, a plain product of a whole or decimal one
    (``mul_values`` checks no bound then; ``fl``: ``float``'s name); '' where it does not
    apply."""
    for i, f in enumerate((a, b)):
        m = re.fullmatch(r"\(?(-?\d+)\)?", f.src) if isinstance(f, Src) else None
        v = int(m.group(1)) if m is not None and len(m.group(1)) < 20 else values[i]
        other = (a, b)[1 - i]
        if type(v) not in (int, float) or not is_local(other):
            continue
        x = f"{{{1 - i}}}"
        if type(v) is float:
            if not fl:
                continue
            return (f"({{0}} * {{1}} if type({x}) is int or type({x}) is {fl} "
                    f"else {k}({{0}}, {{1}}))")
        bound = MAX_NUMBER // max(1, abs(v))
        return (f"({{0}} * {{1}} if type({x}) is int and -{bound} <= {x} <= {bound} "
                f"else {k}({{0}}, {{1}}))")
    return ""


def mul_values(x: Any, y: Any) -> Any:
    if type(x) is int and type(y) is int:
        r = x * y
        if -MAX_NUMBER <= r <= MAX_NUMBER:
            return r
        raise RuntimeRulesError("a number grew beyond 10^30")
    if not isinstance(x, (int, float)) or not isinstance(y, (int, float)):
        raise RuntimeRulesError("'*' needs numbers")
    return x * y


def result_type(b: Builtin, types: list[str]) -> str:
    """The type of a pure built-in's result, by its record's rule over its arguments' types."""
    if b.ret == "elem":
        if len(types) == 1:
            if b.name in ("top", "bottom") and types[0] == "list[card]":
                return "card"
            return elem_of(types[0])
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
