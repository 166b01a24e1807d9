"""The typed AST of the expression and effect language: one frozen dataclass per construct.

Every node carries the ``Span`` of its first character in the YAML file, so that the checker
and the compiler can point at it. Nothing evaluates these nodes directly: ``compile.py`` turns
them into Python closures once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Span


@dataclass(frozen=True, slots=True)
class Node:
    span: Span = field(compare=False, repr=False)


# ---------- expressions ----------
@dataclass(frozen=True, slots=True)
class Const(Node):
    value: object


@dataclass(frozen=True, slots=True)
class Name(Node):
    id: str


@dataclass(frozen=True, slots=True)
class Attr(Node):
    obj: Node
    name: str
    name_span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True, slots=True)
class Slice(Node):
    obj: Node
    lo: Node | None
    hi: Node | None


@dataclass(frozen=True, slots=True)
class ListLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Comprehension(Node):
    """``[elt for x in xs if cond ...]``; also a generator argument ``sum(elt for ...)``."""

    elt: Node
    clauses: tuple[tuple[str, Node, Node | None], ...]  # (variable, iterable, condition)


@dataclass(frozen=True, slots=True)
class Lambda(Node):
    param: str
    body: Node


@dataclass(frozen=True, slots=True)
class Call(Node):
    func: str
    args: tuple[Node, ...]
    kwargs: tuple[tuple[str, Node], ...] = ()


@dataclass(frozen=True, slots=True)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Compare(Node):
    ops: tuple[str, ...]
    operands: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class BoolOp(Node):
    op: str  # "and" | "or"
    values: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True, slots=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True, slots=True)
class IfExpr(Node):
    cond: Node
    then: Node
    orelse: Node


@dataclass(frozen=True, slots=True)
class Let(Node):
    name: str
    value: Node
    body: Node


# ---------- statements ----------
@dataclass(frozen=True, slots=True)
class Assign(Node):
    name: str
    index: Node | None
    op: str  # "=" or "+=", "-=", "*=", "//="
    value: Node


@dataclass(frozen=True, slots=True)
class If(Node):
    branches: tuple[tuple[Node, tuple[Node, ...]], ...]
    orelse: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class For(Node):
    var: str
    iter: Node
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class While(Node):
    cond: Node
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class ExprStmt(Node):
    call: Call


@dataclass(frozen=True, slots=True)
class Pass(Node):
    pass


def children(node: Node) -> list[Node]:
    """The direct sub-nodes of a node, for passes that walk the whole tree."""
    out: list[Node] = []
    for name in node.__slots__:  # type: ignore[attr-defined]
        v = getattr(node, name)
        _collect(v, out)
    return out


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
