"""Stage 3: parse expression and effect strings into AST nodes (``nodes.py``).

One LALR parser, built once from ``grammar.lark`` (and cached on disk by Lark), serves every
string. Spans are translated from offsets inside the string to positions in the YAML file, so
a syntax error points at the character the user typed.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from . import nodes as N
from .errors import Span, SyntaxErr
from .limits import MAX_NODES_DEEP, MAX_SOURCE_CHARS
from .limits import MAX_PARSE_DEPTH as MAX_DEPTH
from .yamlload import YStr

_TOKEN_NAMES = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a string",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "COMMA": "','",
    "COLON": "':'",
    "SEMICOLON": "';'",
    "EQUAL": "'='",
    "COMPOP": "a comparison",
    "ADDOP": "'+' or '-'",
    "MULOP": "'*', '/', '//' or '%'",
    "AUGOP": "'+=', '-=', '*=' or '//='",
    "DOT": "'.'",
    "MINUS": "'-'",
    "__ANON_0": "'->'",
    "$END": "the end of the text",
}


@functools.cache
def _parsers() -> Any:
    import lark

    grammar = (Path(__file__).with_name("grammar.lark")).read_text(encoding="utf-8")
    kw = dict(parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=True)
    try:
        return lark.Lark(grammar, start=["start_expr", "start_stmts"], **kw)
    except (OSError, PermissionError):  # an unwritable cache folder is no reason to fail
        kw["cache"] = False
        return lark.Lark(grammar, start=["start_expr", "start_stmts"], **kw)


@functools.lru_cache(maxsize=4096)
def _tree(text: str, start: str) -> Any:
    """Lark's tree of ``text``, remembered by the text alone: its positions are offsets into
    the text, so the same text met again (a game loaded with other options, a variant's
    inherited rules, the dependency passes' second look) is not parsed again. The trees are
    only read (``_Builder``); a text that does not parse raises each time."""
    return _parsers().parse(text, start=start)


def _span_at(text: str, offset: int, span: Span) -> Span:
    if isinstance(text, YStr):
        return text.pos(offset)
    return span


def _describe(expected: set[str]) -> str:
    names = sorted({_TOKEN_NAMES.get(t, repr(t.lower()) if t.isalpha() else t) for t in expected})
    if len(names) > 8:
        names = names[:8] + ["…"]
    return ", ".join(names)


def parse(text: str, kind: str = "expr", span: Span | None = None) -> N.Node | tuple[N.Node, ...]:
    """Parse ``text`` as an expression (``kind='expr'``) or a sequence of statements."""
    import lark

    base = getattr(text, "span", None) or span or Span()
    if not isinstance(text, str):
        raise SyntaxErr(f"expected a string of rules text, got {type(text).__name__}", base)
    if len(text) > MAX_SOURCE_CHARS:
        raise SyntaxErr(f"this text is longer than {MAX_SOURCE_CHARS} characters", base)
    if not text.strip():
        raise SyntaxErr("expected an expression, found an empty string", base)
    start = "start_expr" if kind == "expr" else "start_stmts"
    try:
        tree = _tree(str(text), start)
    except lark.UnexpectedCharacters as exc:
        where = _span_at(text, exc.pos_in_stream, base)
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        raise SyntaxErr(f"unexpected character {ch!r}", where) from None
    except lark.UnexpectedToken as exc:
        tok = exc.token
        pos = tok.start_pos if tok.start_pos is not None else len(text)
        if tok.type == "$END":
            pos = len(text.rstrip()) or 0
            found = "end of the text"
        else:
            found = repr(str(tok))
        where = _span_at(text, min(pos, max(len(text) - 1, 0)), base)
        if str(tok) == "=" and kind == "expr":
            # an expression is a condition or a value: a lone '=' is almost always a comparison
            raise SyntaxErr("unexpected '=' in an expression: to compare, write '=='; an "
                            "assignment is an effect (do:, start:, settle:)", where) from None
        raise SyntaxErr(f"unexpected {found}; expected {_describe(exc.expected)}", where) from None
    except lark.UnexpectedEOF as exc:
        where = _span_at(text, max(len(text) - 1, 0), base)
        raise SyntaxErr(
            f"unexpected end of text; expected {_describe(set(exc.expected))}", where
        ) from None
    except RecursionError:
        raise SyntaxErr("this text is nested too deeply", base) from None
    try:
        return _Builder(text, base).build(tree)
    except RecursionError:
        raise SyntaxErr("this text is nested too deeply", base) from None


class _Builder:
    """Turns a Lark tree into AST nodes. Dispatches on rule names only here, never at run time."""

    def __init__(self, text: str, base: Span) -> None:
        self.text = text
        self.base = base
        self.depth = 0
        self.deep = 0  # nesting plus chain links: see MAX_NODES_DEEP

    def sp(self, item: Any) -> Span:
        pos = getattr(item, "start_pos", None)
        if pos is None:
            meta = getattr(item, "meta", None)
            pos = getattr(meta, "start_pos", None) if meta is not None else None
        if pos is None:
            return self.base
        return _span_at(self.text, pos, self.base)

    def build(self, tree: Any) -> Any:
        if tree.data == "start_expr":
            return self.expr(tree.children[0])
        return tuple(self.stmt(c) for c in tree.children if c is not None)

    # ----- statements -----
    def block(self, tree: Any) -> tuple[N.Node, ...]:
        self.depth += 1
        self.deep += 1
        try:
            if self.depth > MAX_DEPTH:
                raise SyntaxErr(f"blocks may be nested at most {MAX_DEPTH} deep", self.sp(tree))
            return tuple(self.stmt(c) for c in tree.children if c is not None)
        finally:
            self.depth -= 1
            self.deep -= 1

    def stmt(self, t: Any) -> N.Node:
        d = t.data
        s = self.sp(t)
        if d == "assign" or d == "augassign":
            target = t.children[0]
            name = str(target.children[0])
            index = self.expr(target.children[1]) if target.data == "target_index" else None
            path: list[Any] = [str(target.children[1])] if target.data == "target_field" else []
            for step in target.children[2:]:
                path.append(self.expr(step.children[0]) if step.data == "step_index"
                            else str(step.children[0]))
            op = "=" if d == "assign" else str(t.children[1])
            value = self.expr(t.children[-1])
            return N.Assign(s, name, index, op, value, tuple(path))
        if d == "if_stmt":
            cond, body, *rest = t.children
            branches = [(self.expr(cond), self.block(body))]
            orelse: tuple[N.Node, ...] = ()
            for part in rest:
                if part is None:
                    continue
                if part.data == "elif_part":
                    branches.append((self.expr(part.children[0]), self.block(part.children[1])))
                else:
                    orelse = self.block(part.children[0])
            return N.If(s, tuple(branches), orelse)
        if d == "for_stmt":
            var, it, body = t.children
            return N.For(s, str(var), self.expr(it), self.block(body))
        if d == "while_stmt":
            cond, body = t.children
            return N.While(s, self.expr(cond), self.block(body))
        if d == "call_stmt":
            call = self.expr(t.children[0])
            return N.ExprStmt(s, call)
        if d == "pass_stmt":
            return N.Pass(s)
        raise SyntaxErr(f"unexpected statement {d}", s)  # pragma: no cover

    # ----- expressions -----
    def expr(self, t: Any) -> N.Node:
        self.depth += 1
        self.deep += 1
        if self.depth > MAX_DEPTH:
            self.depth -= 1
            self.deep -= 1
            raise SyntaxErr(f"expressions may be nested at most {MAX_DEPTH} deep", self.sp(t))
        if self.deep > MAX_NODES_DEEP:
            self.depth -= 1
            self.deep -= 1
            raise SyntaxErr(f"this expression is too big: more than {MAX_NODES_DEEP} operations "
                            "inside one another (a chain like a + b + c counts each link)",
                            self.sp(t))
        try:
            return self._expr(t)
        finally:
            self.depth -= 1
            self.deep -= 1

    def _expr(self, t: Any) -> N.Node:
        import lark

        if isinstance(t, lark.Token):  # a bare NAME reaching here (targets, params)
            return N.Name(self.sp(t), str(t))
        d = t.data
        c = t.children
        s = self.sp(t)
        if len(c) == 1 and d in ("or_op", "and_op", "compare", "binop_chain"):
            return self.expr(c[0])
        if d == "number":
            txt = str(c[0])
            if len(txt) > 40 or int(txt.split(".")[0]) > 10**15:
                raise SyntaxErr("a number larger than 10^15 is not allowed", s)
            return N.Const(s, float(txt) if "." in txt else int(txt))
        if d == "string":
            return N.Const(s, str(c[0])[1:-1])
        if d == "true":
            return N.Const(s, True)
        if d == "false":
            return N.Const(s, False)
        if d == "none":
            return N.Const(s, None)
        if d == "name":
            return N.Name(s, str(c[0]))
        if d == "attr":
            obj = self.expr(c[0])
            return N.Attr(obj.span, obj, str(c[1]), self.sp(c[1]))
        if d == "index":
            return N.Index(s, self.expr(c[0]), self.expr(c[1]))
        if d == "slice":
            lo = self.expr(c[1]) if c[1] is not None else None
            hi = self.expr(c[2]) if c[2] is not None else None
            return N.Slice(s, self.expr(c[0]), lo, hi)
        if d == "list":
            return N.ListLit(s, tuple(self.expr(x) for x in c if x is not None))
        if d == "record":
            fields = [x for x in c if x is not None]
            return N.RecordLit(s, tuple((str(f.children[0]), self.expr(f.children[1]))
                                        for f in fields))
        if d == "listcomp":
            return N.Comprehension(s, self.expr(c[0]), tuple(self.comp(x) for x in c[1:]))
        if d == "call":
            return self.call(t)
        if d == "lambda":
            return N.Lambda(s, str(c[0]), self.expr(c[1]))
        if d == "ifexpr":
            return N.IfExpr(s, self.expr(c[0]), self.expr(c[1]), self.expr(c[2]))
        if d == "letexpr":
            return N.Let(s, str(c[0]), self.expr(c[1]), self.expr(c[2]))
        if d == "or_op" or d == "and_op":
            return N.BoolOp(s, d[:-3], tuple(self.expr(x) for x in c))
        if d == "not_op":
            return N.Not(s, self.expr(c[0]))
        if d == "neg":
            inner = self.expr(c[0])
            if isinstance(inner, N.Const) and isinstance(inner.value, (int, float)):
                return N.Const(s, -inner.value)
            return N.Neg(s, inner)
        if d == "compare":
            ops = tuple(str(x) for x in c[1::2])
            return N.Compare(s, ops, tuple(self.expr(x) for x in c[0::2]))
        if d == "contains":
            return N.Compare(s, ("in",), (self.expr(c[0]), self.expr(c[1])))
        if d == "not_contains":
            return N.Compare(s, ("not in",), (self.expr(c[0]), self.expr(c[1])))
        if d == "binop_chain":
            links = len(c) // 2  # the chain becomes this many nodes, one inside the other
            self.deep += links
            try:
                left = self.expr(c[0])
                for op, right in zip(c[1::2], c[2::2]):
                    left = N.BinOp(self.sp(op), str(op), left, self.expr(right))
                return left
            finally:
                self.deep -= links
        raise SyntaxErr(f"unexpected construct {d}", s)  # pragma: no cover

    def comp(self, t: Any) -> tuple[str, N.Node, N.Node | None]:
        var, it, cond = t.children
        return (str(var), self.expr(it), self.expr(cond) if cond is not None else None)

    def call(self, t: Any) -> N.Call:
        name_tok, arglist = t.children
        s = self.sp(name_tok)
        args: list[N.Node] = []
        kwargs: list[tuple[str, N.Node]] = []
        if arglist is not None:
            if arglist.data == "genarg":
                elt, *fors = arglist.children
                comp = N.Comprehension(self.sp(arglist), self.expr(elt),
                                       tuple(self.comp(x) for x in fors))
                return N.Call(s, str(name_tok), (comp,))
            for a in arglist.children:
                if a is None:
                    continue
                if getattr(a, "data", None) == "kwarg":
                    kwargs.append((str(a.children[0]), self.expr(a.children[1])))
                else:
                    args.append(self.expr(a))
        return N.Call(s, str(name_tok), tuple(args), tuple(kwargs))
