"""The expression and effect grammar (grammar.lark + parse.py): shapes, precedence, spans."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelang import nodes as N
from rulelang.errors import SyntaxErr
from rulelang.parse import parse
from rulelang.yamlload import YStr, load_text


def E(text: str) -> N.Node:
    node = parse(text, "expr")
    assert isinstance(node, N.Node)
    return node


def S(text: str) -> tuple[N.Node, ...]:
    out = parse(text, "stmts")
    assert isinstance(out, tuple)
    return out


def sym(node: N.Node) -> object:
    """A compact, span-free picture of an expression tree, for comparing shapes."""
    if isinstance(node, N.Const):
        return node.value
    if isinstance(node, N.Name):
        return node.id
    if isinstance(node, N.BinOp):
        return (node.op, sym(node.left), sym(node.right))
    if isinstance(node, N.BoolOp):
        return (node.op, *[sym(v) for v in node.values])
    if isinstance(node, N.Not):
        return ("not", sym(node.operand))
    if isinstance(node, N.Neg):
        return ("neg", sym(node.operand))
    if isinstance(node, N.Compare):
        out: list[object] = [sym(node.operands[0])]
        for op, right in zip(node.ops, node.operands[1:]):
            out += [op, sym(right)]
        return ("cmp", *out)
    if isinstance(node, N.Attr):
        return (".", sym(node.obj), node.name)
    if isinstance(node, N.Index):
        return ("[]", sym(node.obj), sym(node.index))
    if isinstance(node, N.Call):
        return ("call", node.func, *[sym(a) for a in node.args],
                *[(k, sym(v)) for k, v in node.kwargs])
    if isinstance(node, N.Lambda):
        return ("->", node.param, sym(node.body))
    if isinstance(node, N.IfExpr):
        return ("if", sym(node.cond), sym(node.then), sym(node.orelse))
    if isinstance(node, N.Let):
        return ("let", node.name, sym(node.value), sym(node.body))
    if isinstance(node, N.ListLit):
        return ["list", *[sym(x) for x in node.items]]
    if isinstance(node, N.Comprehension):
        return ("comp", sym(node.elt),
                *[(v, sym(it), sym(c) if c is not None else None) for v, it, c in node.clauses])
    if isinstance(node, N.Slice):
        return ("slice", sym(node.obj), sym(node.lo) if node.lo else None,
                sym(node.hi) if node.hi else None)
    raise AssertionError(f"unexpected node {node!r}")


# ---------------------------------------------------------------- precedence and associativity
@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("1 + 2 * 3", ("+", 1, ("*", 2, 3))),
        ("(1 + 2) * 3", ("*", ("+", 1, 2), 3)),
        ("a - b - c", ("-", ("-", "a", "b"), "c")),
        ("a // b % c", ("%", ("//", "a", "b"), "c")),
        ("a / b * c", ("*", ("/", "a", "b"), "c")),
        ("-a * b", ("*", ("neg", "a"), "b")),
        ("-2", -2),
        ("10 - -3", ("-", 10, -3)),
        ("-x.order", ("neg", (".", "x", "order"))),
        ("a or b and not c", ("or", "a", ("and", "b", ("not", "c")))),
        ("a and b or c", ("or", ("and", "a", "b"), "c")),
        ("a or b or c", ("or", "a", "b", "c")),
        ("not a == b", ("not", ("cmp", "a", "==", "b"))),
        ("not not a", ("not", ("not", "a"))),
        ("a + 1 < b * 2", ("cmp", ("+", "a", 1), "<", ("*", "b", 2))),
        ("1 < x <= 3", ("cmp", 1, "<", "x", "<=", 3)),
        ("a != b >= c", ("cmp", "a", "!=", "b", ">=", "c")),
        ("a + 1 in xs", ("cmp", ("+", "a", 1), "in", "xs")),
        ("c not in hand", ("cmp", "c", "not in", "hand")),
        ("a in b and c", ("and", ("cmp", "a", "in", "b"), "c")),
        ("a.b.c", (".", (".", "a", "b"), "c")),
        ("hand[p][0].rank", (".", ("[]", ("[]", "hand", "p"), 0), "rank")),
        ("xs[1:]", ("slice", "xs", 1, None)),
        ("xs[:2]", ("slice", "xs", None, 2)),
        ("xs[:]", ("slice", "xs", None, None)),
        ("3.5 * 2", ("*", 3.5, 2)),
        ("'a#b' == \"c\"", ("cmp", "a#b", "==", "c")),
        ("a # a comment", "a"),
        ("true and false or none", ("or", ("and", True, False), None)),
        ("[]", ["list"]),
        ("[1, 2,]", ["list", 1, 2]),
        ("f()", ("call", "f")),
        ("f(1,)", ("call", "f", 1)),
        ("max(xs, key: c -> c.order)", ("call", "max", "xs", ("key", ("->", "c",
                                                                     (".", "c", "order"))))),
    ],
)
def test_precedence(text: str, shape: object) -> None:
    assert sym(E(text)) == shape


def test_keyword_prefixes_are_names() -> None:
    words = ["order", "index", "notable", "inx", "lettuce", "iffy", "elifant", "then_",
             "trueish", "none_left", "passes", "forward", "whiler", "android", "letter"]
    for w in words:
        assert sym(E(w)) == w
        assert sym(E(f"{w} + 1")) == ("+", w, 1)


@pytest.mark.parametrize("kw", ["if", "then", "else", "let", "for", "in", "and", "or", "not",
                                "while", "pass", "elif", "true", "false", "none"])
def test_keywords_are_not_names(kw: str) -> None:
    with pytest.raises(SyntaxErr):
        S(f"{kw} = 1")


# ---------------------------------------------------------------- comprehensions and lambdas
def test_list_comprehension() -> None:
    assert sym(E("[x for x in xs if x > 1]")) == (
        "comp", "x", ("x", "xs", ("cmp", "x", ">", 1)))


def test_nested_comprehension_clauses() -> None:
    assert sym(E("[x + y for x in xs for y in ys if y != x]")) == (
        "comp", ("+", "x", "y"), ("x", "xs", None), ("y", "ys", ("cmp", "y", "!=", "x")))


def test_generator_argument() -> None:
    node = E("max(sum(points[c.rank] for c in cards if c.suit == s) for s in suits)")
    assert isinstance(node, N.Call) and node.func == "max"
    (outer,) = node.args
    assert isinstance(outer, N.Comprehension)
    inner = outer.elt
    assert isinstance(inner, N.Call) and inner.func == "sum"
    assert sym(inner.args[0]) == (
        "comp", ("[]", "points", (".", "c", "rank")),
        ("c", "cards", ("cmp", (".", "c", "suit"), "==", "s")))
    assert sym(outer) == ("comp", sym(inner), ("s", "suits", None))


def test_comprehension_condition_binds_tighter_than_ifexpr() -> None:
    # the iterable of a comprehension is an or_test: a conditional there needs parentheses
    assert sym(E("[x for x in (if a then xs else ys)]")) == (
        "comp", "x", ("x", ("if", "a", "xs", "ys"), None))


def test_lambda() -> None:
    assert sym(E("x -> x + 1")) == ("->", "x", ("+", "x", 1))
    assert sym(E("x -> y -> x + y")) == ("->", "x", ("->", "y", ("+", "x", "y")))
    assert sym(E("lowest(players, p -> hand_value(hand[p]))")) == (
        "call", "lowest", "players", ("->", "p", ("call", "hand_value", ("[]", "hand", "p"))))


def test_lambda_without_spaces() -> None:
    assert sym(E("x->x")) == ("->", "x", "x")


# ---------------------------------------------------------------- let and if-then-else
def test_let() -> None:
    assert sym(E("let v = 3; v * 2")) == ("let", "v", 3, ("*", "v", 2))
    assert sym(E("let a = 1; let b = 2; a + b")) == ("let", "a", 1, ("let", "b", 2,
                                                                      ("+", "a", "b")))


def test_let_body_extends_to_the_end() -> None:
    assert sym(E("let v = 1; v + 1 > 2 and ok")) == (
        "let", "v", 1, ("and", ("cmp", ("+", "v", 1), ">", 2), "ok"))


def test_if_then_else() -> None:
    assert sym(E("if a then b else c")) == ("if", "a", "b", "c")
    # the else branch takes the whole rest of the expression
    assert sym(E("if a then 1 else 2 + 3")) == ("if", "a", 1, ("+", 2, 3))
    assert sym(E("1 + (if a then 2 else 3)")) == ("+", 1, ("if", "a", 2, 3))
    assert sym(E("if a then if b then 1 else 2 else 3")) == ("if", "a", ("if", "b", 1, 2), 3)


def test_if_without_else_is_an_error() -> None:
    with pytest.raises(SyntaxErr):
        E("if a then b")
    with pytest.raises(SyntaxErr):
        E("a if b else c")


# ---------------------------------------------------------------- statements
def test_if_elif_else_block() -> None:
    (stmt,) = S("if a { x = 1 } elif b { x = 2; y = 3 } elif c { pass } else { x = 4 }")
    assert isinstance(stmt, N.If)
    assert [sym(c) for c, _ in stmt.branches] == ["a", "b", "c"]
    assert [len(b) for _, b in stmt.branches] == [1, 2, 1]
    assert isinstance(stmt.branches[2][1][0], N.Pass)
    assert len(stmt.orelse) == 1
    assert isinstance(stmt.orelse[0], N.Assign) and sym(stmt.orelse[0].value) == 4


def test_if_with_empty_block_and_no_else() -> None:
    (stmt,) = S("if a { }")
    assert isinstance(stmt, N.If)
    assert stmt.branches[0][1] == ()
    assert stmt.orelse == ()


def test_for_and_while() -> None:
    f, w = S("for p in players { if not blitzed(p) { lose(p, 1) } }; "
             "while x < 3 { x += 1 }")
    assert isinstance(f, N.For) and f.var == "p" and sym(f.iter) == "players"
    (inner,) = f.body
    assert isinstance(inner, N.If)
    (call,) = inner.branches[0][1]
    assert isinstance(call, N.ExprStmt) and sym(call.call) == ("call", "lose", "p", 1)
    assert isinstance(w, N.While) and sym(w.cond) == ("cmp", "x", "<", 3)
    (aug,) = w.body
    assert isinstance(aug, N.Assign) and aug.op == "+="


@pytest.mark.parametrize(
    ("text", "name", "index", "op", "value"),
    [
        ("x = 1", "x", None, "=", 1),
        ("knocker = none", "knocker", None, "=", None),
        ("lives[p] = max(0, lives[p] - n)", "lives", "p", "=",
         ("call", "max", 0, ("-", ("[]", "lives", "p"), "n"))),
        ("pot += 2", "pot", None, "+=", 2),
        ("chips[me] -= stake", "chips", "me", "-=", "stake"),
        ("x *= 2", "x", None, "*=", 2),
        ("x //= 2", "x", None, "//=", 2),
        ("x = if a then 1 else 2", "x", None, "=", ("if", "a", 1, 2)),
        ("x = y -> y", "x", None, "=", ("->", "y", "y")),
    ],
)
def test_assignments(text: str, name: str, index: object, op: str, value: object) -> None:
    (stmt,) = S(text)
    assert isinstance(stmt, N.Assign)
    assert stmt.name == name
    assert (sym(stmt.index) if stmt.index is not None else None) == index
    assert stmt.op == op
    assert sym(stmt.value) == value


def test_statement_sequences() -> None:
    stmts = S("gather(stock); shuffle(stock);")
    assert [sym(s.call) for s in stmts if isinstance(s, N.ExprStmt)] == [
        ("call", "gather", "stock"), ("call", "shuffle", "stock")]
    assert len(S("knocker = none; taken = none")) == 2
    assert isinstance(S("pass")[0], N.Pass)
    assert [type(s) for s in S("f(x) ; pass")] == [N.ExprStmt, N.Pass]


def test_call_with_keyword_arguments() -> None:
    (stmt,) = S("move(top(stock), discard, at: 'bottom', face: 'up')")
    assert isinstance(stmt, N.ExprStmt)
    assert sym(stmt.call) == ("call", "move", ("call", "top", "stock"), "discard",
                              ("at", "bottom"), ("face", "up"))


@pytest.mark.parametrize("text", ["x + 1", "x == 1", "f(x) = 3", "1 = x", "x.y() = 1", "x =",
                                  "if a then b else c", "for p in ps", "while x", "{ x = 1 }",
                                  "if a { x = 1 } else if b { x = 2 }"])
def test_bad_statements(text: str) -> None:
    with pytest.raises(SyntaxErr):
        S(text)


@pytest.mark.parametrize("text", ["1 +", "(1", "f(1, 2", "a b", "[x for x in]", "x = 1", "a $ b",
                                  "f(a)(b)", "let v = 1 v", "xs[", "a ->", "-", "not", "''' ",
                                  "a..b", "a.1"])
def test_bad_expressions(text: str) -> None:
    with pytest.raises(SyntaxErr):
        E(text)


def test_empty_text_is_an_error() -> None:
    for text in ["", "   ", "\n"]:
        with pytest.raises(SyntaxErr, match="empty"):
            E(text)


def test_limits() -> None:
    with pytest.raises(SyntaxErr, match="longer than"):
        E("x" * 20_001)
    for deep in ["(" * 100 + "1" + ")" * 100, "-" * 500 + "a", "not " * 500 + "a",
                 "[" * 300 + "]" * 300, "a" + ".b" * 300, "f(" * 300 + ")" * 300,
                 "x -> " * 300 + "x"]:
        with pytest.raises(SyntaxErr, match="nested"):
            E(deep)


# ---------------------------------------------------------------- spans of nodes and errors
def ystr(yaml_text: str, *path: str | int) -> YStr:
    data = load_text(yaml_text, "rules.yaml")
    for k in path:
        data = data[k]
    assert isinstance(data, YStr)
    return data


def test_node_spans_map_into_the_file() -> None:
    text = "name: x\nwhen: size(stock) > 0 and foo(bar)\n"
    node = E(ystr(text, "when"))
    assert isinstance(node, N.BoolOp)
    left, right = node.values
    assert isinstance(left, N.Compare)
    call = left.operands[0]
    assert isinstance(call, N.Call)
    assert (call.span.path, call.span.line, call.span.col) == ("rules.yaml", 2, 7)
    assert (call.args[0].span.line, call.args[0].span.col) == (2, 12)
    assert (left.operands[1].span.line, left.operands[1].span.col) == (2, 21)
    assert isinstance(right, N.Call)
    assert (right.span.line, right.span.col) == (2, 27)
    assert (right.args[0].span.line, right.args[0].span.col) == (2, 31)


def test_node_spans_in_a_block_list_of_effects() -> None:
    text = "do:\n  - x = 1\n  - |\n    if a {\n      lose(p, 1)\n    }\n"
    (stmt,) = S(ystr(text, "do", 1))
    assert isinstance(stmt, N.If)
    assert (stmt.span.line, stmt.span.col) == (4, 5)
    (call,) = stmt.branches[0][1]
    assert isinstance(call, N.ExprStmt)
    assert (call.span.line, call.span.col) == (5, 7)


SYNTAX_ERRORS = [
    # (yaml text, key path, kind, line, col, message fragment)
    ("a: 1\nb: size(stock) $ 2\n", ("b",), "expr", 2, 16, "unexpected character '$'"),
    ("a: 1 + * 2\n", ("a",), "expr", 1, 8, "unexpected '*'"),
    ('b: "x ++ y"\n', ("b",), "expr", 1, 8, "unexpected '+'"),
    ("b: 'x + ''s'' * * y'\n", ("b",), "expr", 1, 17, "unexpected '*'"),
    ('d: "a\\t+ * y"\n', ("d",), "expr", 1, 10, "unexpected '*'"),
    ("c: >-\n  foo(1,\n  2 3)\n", ("c",), "expr", 3, 5, "unexpected '3'"),
    ("c: |\n  x = 1;\n  y = = 2\n", ("c",), "stmts", 3, 7, "unexpected '='"),
    ("c: plain\n  continued ) here\n", ("c",), "expr", 2, 3, "unexpected 'continued'"),
    ("x:\n  - ok = 1\n  - if a { b = 1 } els { }\n", ("x", 1), "stmts", 3, 20,
     "unexpected 'els'"),
    ("k: [1, \"a + (b\"]\n", ("k", 1), "expr", 1, 14, "end of the text"),
    ('i: "\'\\u00e9\' + $"\n', ("i",), "expr", 1, 16, "unexpected character '$'"),
    ("u: \"♠♠ — \"\nv: \"é + é\"\n", ("v",), "expr", 2, 5, "unexpected character 'é'"),
    ("a: 1\r\nx: size(a) $ 2\r\n", ("x",), "expr", 2, 12, "unexpected character '$'"),
    ("a: 1\nh: size(hand[p]) ==\n", ("h",), "expr", 2, 19, "end of the text"),
]


@pytest.mark.parametrize(("text", "path", "kind", "line", "col", "msg"), SYNTAX_ERRORS)
def test_syntax_error_spans(text: str, path: tuple[str | int, ...], kind: str, line: int,
                            col: int, msg: str) -> None:
    s = ystr(text, *path)
    with pytest.raises(SyntaxErr) as info:
        parse(s, kind)
    err = info.value
    assert msg in err.message
    assert (err.span.path, err.span.line, err.span.col) == ("rules.yaml", line, col), (
        err.message)


def test_syntax_error_render_has_source_line_and_caret() -> None:
    text = "name: x\nwhen: size(stock) $ 2\n"
    with pytest.raises(SyntaxErr) as info:
        parse(ystr(text, "when"))
    lines = info.value.render().splitlines()
    assert lines[0].startswith("rules.yaml:2:19: error: unexpected character")
    assert lines[1].strip() == "when: size(stock) $ 2"
    caret_col = lines[2].index("^") - lines[1].index("when") + 1
    assert caret_col == 19


def test_plain_string_errors_have_the_given_span() -> None:
    from rulelang.errors import Span

    with pytest.raises(SyntaxErr) as info:
        parse("1 +", "expr", Span("f.yaml", 7, 3))
    assert (info.value.span.line, info.value.span.col) == (7, 3)


# ---------------------------------------------------------------- robustness
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("ab1 +-*/%()[]{}<>=!.,:;'\"#-> \n\té♠$")
                                + ["if ", "then ", "else ", "let ", "for ", " in ", "and ",
                                   "not ", "while ", "->", "x", "f(", "elif ", "pass"]),
                max_size=30).map("".join))
def test_parse_fails_only_with_syntax_errors(text: str) -> None:
    for kind in ("expr", "stmts"):
        try:
            parse(text, kind)
        except SyntaxErr as e:
            assert e.message
