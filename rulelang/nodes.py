"""The typed AST of the expression and effect language: one frozen dataclass per construct.

Every node carries the ``Span`` of its first character in the YAML file, so that the checker
and the compiler can point at it. Nothing evaluates these nodes directly: ``compile.py`` turns
them into Python closures once.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .compat import SLOTS
from .errors import Span


@dataclass(frozen=True, **SLOTS)
class Node:
    """Every node: where its text starts in the YAML file (not compared: equal trees written
    in two places are equal)."""

    span: Span = field(compare=False, repr=False)


# ---------- expressions ----------
@dataclass(frozen=True, **SLOTS)
class Const(Node):
    """A number, text, ``true``/``false`` or ``none`` written as it is."""

    value: object


@dataclass(frozen=True, **SLOTS)
class Name(Node):
    """A name: a variable, a counter, a global, a zone, ``me``, ``opt`` ..."""

    id: str


@dataclass(frozen=True, **SLOTS)
class Attr(Node):
    """``obj.name``: a card's attribute, a record's field, an option (``opt.lives``)."""

    obj: Node
    name: str
    name_span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, **SLOTS)
class Index(Node):
    """``obj[index]``: a per-seat value, an item of a list, a record's field by name."""

    obj: Node
    index: Node


@dataclass(frozen=True, **SLOTS)
class Slice(Node):
    """``obj[lo:hi]`` (either bound may be left out)."""

    obj: Node
    lo: Node | None
    hi: Node | None


@dataclass(frozen=True, **SLOTS)
class ListLit(Node):
    """``[a, b, c]``."""

    items: tuple[Node, ...]


@dataclass(frozen=True, **SLOTS)
class RecordLit(Node):
    """``{stake: 10, doubled: false}``: a record made of named fields, in the order written."""
    fields: tuple[tuple[str, Node], ...]


@dataclass(frozen=True, **SLOTS)
class Comprehension(Node):
    """``[elt for x in xs if cond ...]``; also a generator argument ``sum(elt for ...)``."""

    elt: Node
    clauses: tuple[tuple[str, Node, Node | None], ...]  # (variable, iterable, condition)


@dataclass(frozen=True, **SLOTS)
class Lambda(Node):
    """``x -> body``: a one-argument function passed to a built-in
    (``count(hand, c -> c.rank == 'A')``)."""

    param: str
    body: Node


@dataclass(frozen=True, **SLOTS)
class Call(Node):
    """``func(args, name: value)``: a built-in or a rules function."""

    func: str
    args: tuple[Node, ...]
    kwargs: tuple[tuple[str, Node], ...] = ()


@dataclass(frozen=True, **SLOTS)
class BinOp(Node):
    """``left op right`` for ``+ - * / // %``."""

    op: str
    left: Node
    right: Node


@dataclass(frozen=True, **SLOTS)
class Compare(Node):
    """``a < b <= c``: a chain of comparisons (``==``, ``!=``, ``<``, ``in`` ...)."""

    ops: tuple[str, ...]
    operands: tuple[Node, ...]


@dataclass(frozen=True, **SLOTS)
class BoolOp(Node):
    """``a and b and c`` / ``a or b``."""

    op: str  # "and" | "or"
    values: tuple[Node, ...]


@dataclass(frozen=True, **SLOTS)
class Not(Node):
    """``not operand``."""

    operand: Node


@dataclass(frozen=True, **SLOTS)
class Neg(Node):
    """``-operand``."""

    operand: Node


@dataclass(frozen=True, **SLOTS)
class IfExpr(Node):
    """``if cond then a else b``."""

    cond: Node
    then: Node
    orelse: Node


@dataclass(frozen=True, **SLOTS)
class Let(Node):
    """``let name = value; body``."""

    name: str
    value: Node
    body: Node


# ---------- statements ----------
@dataclass(frozen=True, **SLOTS)
class Assign(Node):
    """``name = value``, ``name[index] += value``, ``name[index].field = value`` ..."""

    name: str
    index: Node | None
    op: str  # "=" or "+=", "-=", "*=", "//="
    value: Node
    # the place inside the value assigned, after ``index``: an expression for ``[i]``, a
    # string for ``.field`` (``bets[p][0].stake = 5``: index p, path (0, 'stake'))
    path: tuple[Node | str, ...] = ()


@dataclass(frozen=True, **SLOTS)
class If(Node):
    """``if``/``elif``/``else`` blocks of statements."""

    branches: tuple[tuple[Node, tuple[Node, ...]], ...]
    orelse: tuple[Node, ...]


@dataclass(frozen=True, **SLOTS)
class For(Node):
    """``for var in iter:`` a block of statements."""

    var: str
    iter: Node
    body: tuple[Node, ...]


@dataclass(frozen=True, **SLOTS)
class While(Node):
    """``while cond:`` a block of statements (each pass is charged as work)."""

    cond: Node
    body: tuple[Node, ...]


@dataclass(frozen=True, **SLOTS)
class ExprStmt(Node):
    """A call as a statement: an effect (``move(c, discard)``) or a procedure."""

    call: Call


@dataclass(frozen=True, **SLOTS)
class Pass(Node):
    """``pass``: nothing."""


def children(node: Node) -> list[Node]:
    """The direct sub-nodes of a node, for passes that walk the whole tree."""
    out: list[Node] = []
    for name in _own_fields(type(node)):
        v = getattr(node, name)
        _collect(v, out)
    return out


_OWN_FIELDS: dict[type, tuple[str, ...]] = {}


def _own_fields(cls: type) -> tuple[str, ...]:
    """The fields a node class adds to ``Node`` in order (what its ``__slots__`` were; slots
    are not there on Python 3.9), cached because the checker's passes walk every node."""
    names = _OWN_FIELDS.get(cls)
    if names is None:
        names = _OWN_FIELDS[cls] = tuple(f.name for f in fields(cls) if f.name != "span")
    return names


def _collect(v: object, out: list[Node]) -> None:
    if isinstance(v, Node):
        out.append(v)
    elif isinstance(v, tuple):
        for x in v:
            _collect(x, out)


def walk(node: Node):
    """Every node below ``node``, itself included, depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(children(n))
