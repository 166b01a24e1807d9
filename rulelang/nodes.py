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
    span: Span = field(compare=False, repr=False)


# ---------- expressions ----------
@dataclass(frozen=True, **SLOTS)
class Const(Node):
    value: object


@dataclass(frozen=True, **SLOTS)
class Name(Node):
    id: str


@dataclass(frozen=True, **SLOTS)
class Attr(Node):
    obj: Node
    name: str
    name_span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, **SLOTS)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True, **SLOTS)
class Slice(Node):
    obj: Node
    lo: Node | None
    hi: Node | None


@dataclass(frozen=True, **SLOTS)
class ListLit(Node):
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
    param: str
    body: Node


@dataclass(frozen=True, **SLOTS)
class Call(Node):
    func: str
    args: tuple[Node, ...]
    kwargs: tuple[tuple[str, Node], ...] = ()


@dataclass(frozen=True, **SLOTS)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True, **SLOTS)
class Compare(Node):
    ops: tuple[str, ...]
    operands: tuple[Node, ...]


@dataclass(frozen=True, **SLOTS)
class BoolOp(Node):
    op: str  # "and" | "or"
    values: tuple[Node, ...]


@dataclass(frozen=True, **SLOTS)
class Not(Node):
    operand: Node


@dataclass(frozen=True, **SLOTS)
class Neg(Node):
    operand: Node


@dataclass(frozen=True, **SLOTS)
class IfExpr(Node):
    cond: Node
    then: Node
    orelse: Node


@dataclass(frozen=True, **SLOTS)
class Let(Node):
    name: str
    value: Node
    body: Node


# ---------- statements ----------
@dataclass(frozen=True, **SLOTS)
class Assign(Node):
    name: str
    index: Node | None
    op: str  # "=" or "+=", "-=", "*=", "//="
    value: Node
    # the place inside the value assigned, after ``index``: an expression for ``[i]``, a
    # string for ``.field`` (``bets[p][0].stake = 5``: index p, path (0, 'stake'))
    path: tuple[Node | str, ...] = ()


@dataclass(frozen=True, **SLOTS)
class If(Node):
    branches: tuple[tuple[Node, tuple[Node, ...]], ...]
    orelse: tuple[Node, ...]


@dataclass(frozen=True, **SLOTS)
class For(Node):
    var: str
    iter: Node
    body: tuple[Node, ...]


@dataclass(frozen=True, **SLOTS)
class While(Node):
    cond: Node
    body: tuple[Node, ...]


@dataclass(frozen=True, **SLOTS)
class ExprStmt(Node):
    call: Call


@dataclass(frozen=True, **SLOTS)
class Pass(Node):
    pass


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
