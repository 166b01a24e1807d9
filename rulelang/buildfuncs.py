"""Building a rules file's own functions and procedures for the builder (``build.py``): their
signatures read first, so that bodies may call each other (with the definitions an extended
file overrides, kept as ``NAME@super`` where the one over them calls ``super()``), then their
bodies compiled and installed, the pure ones memoised (``functions.py``), and the procedures
compiled again once every function is final and can be inlined into them.
"""

from __future__ import annotations

from typing import Any

from . import nodes as N
from .compile import Compiler
from .errors import RulesError, Span
from .functions import install, memoize_pure, order_free
from .lettail import compile_body
from .parse import parse
from .rules import SIG, as_str
from .scope import Scope, Symbols, UserFn
from .yamlload import YMap


def signatures(b: Any, doc: Any) -> tuple[dict[str, UserFn], list[tuple[UserFn, Any, Span, bool]]]:
    """The functions and procedures of the rules document ``doc``, by name (``NAME@super``
    too), and each one's body with its place and whether it is a procedure, in the order
    they are to be compiled; ``b``: the builder (``build.Builder``), its errors."""
    functions: dict[str, UserFn] = {}
    bodies: list[tuple[UserFn, Any, Span, bool]] = []
    for section, effect in (("functions", False), ("procedures", True)):
        sdoc = doc.get(section) or YMap()
        for key, body in sdoc.items():
            m = SIG.match(str(key))
            kspan = sdoc.key_span(key)
            if not m:
                b.err(f"{section[:-1]} key '{key}' should look like name(a, b)", kspan)
                continue
            name = m.group(1)
            params = tuple(p.strip() for p in (m.group(2) or "").split(",") if p.strip())
            if name in functions:
                b.err(f"'{name}' is defined twice", kspan)
                continue
            uf = UserFn(name, params, kspan, effect)
            functions[name] = uf
            bodies.append((uf, body, sdoc.span_of(key), effect))
            chain = b.loaded.supers.get(name, [])
            prev, prev_body = uf, body
            for skey, sbody in reversed(chain):
                # an overridden definition is compiled only if the one over it calls
                # super(): a variant may replace a function whose old body uses a name
                # it removes
                if not b.take_text(prev_body, kspan) or \
                        not calls_super(prev_body, effect, kspan):
                    break
                prev_body = sbody
                sm = SIG.match(str(skey))
                sparams = tuple(p.strip() for p in ((sm.group(2) if sm else "") or "")
                                .split(",") if p.strip())
                sup = UserFn(prev.name + "@super", sparams, kspan, effect)
                functions[sup.name] = sup
                bodies.append((sup, sbody, getattr(sbody, "span", kspan), effect))
                prev = sup
    return functions, bodies


def compile_functions(b: Any, c: Compiler, functions: dict[str, UserFn],
                      bodies: list[tuple[UserFn, Any, Span, bool]], sym: Symbols) -> None:
    """Every body of ``bodies`` compiled with the compiler ``c`` and installed in its
    ``UserFn``; the pure functions memoised; then, where nothing failed, the procedures
    compiled again with the functions final (``c.functions_final``)."""
    first: dict[int, tuple[int, int]] = {}  # a procedure's pieces of generated source
    for uf, body, bspan, effect in bodies:
        sc = Scope(uf.params, fn=uf)
        c.touch = False
        if effect:
            first[id(uf)] = (len(c.cg.sources), 0)
            fn = b.effects(c, body, bspan, sc)
        else:
            tree = b.parse(body, "expr", bspan)
            fn = None
            if tree is not None:
                fn, uf.ret = compile_body(c, tree, sc, uf, functions)
                uf.tree, uf.size = tree, sum(1 for _ in N.walk(tree))
                uf.order_free = tuple(order_free(tree, p, functions) for p in uf.params)
        uf.nslots = sc.n
        uf.pure = not effect and not c.touch
        install(uf, fn, c.cg)
        if effect:
            first[id(uf)] = (first[id(uf)][0], len(c.cg.sources))
    memoize_pure(functions, sym)
    c.functions_final = True
    if not b.errors and not c.errors:
        # the procedures again, now that the functions they call can be inlined into
        # them as into steps (the table's small helpers: no call per seat looked at)
        # (what it found the first time is not reported again; where it would find
        # something new, the first compile is kept)
        c.procedures_final = False  # meanwhile a procedure calls another by its .fn
        seen = len(c.warnings)
        for uf, body, bspan, effect in bodies:
            if effect:
                sc = Scope(uf.params, fn=uf)
                at = len(c.cg.sources)
                fn = b.effects(c, body, bspan, sc)
                if b.errors or c.errors:
                    b.errors.clear()
                    c.errors.clear()
                    continue
                uf.nslots = sc.n
                install(uf, fn, c.cg)
                # the dump shows the code that runs: the first compile's pieces (kept in
                # their places, which tracebacks name by number) point to the second's
                lo, hi = first.get(id(uf), (0, 0))
                for i in range(lo, hi):
                    c.cg.sources[i] = (f"# compiled again below (#{at + 1} on)",
                                       c.cg.sources[i][1])
        del c.warnings[seen:]
        c.procedures_final = True


def calls_super(body: Any, effect: bool, span: Span) -> bool:
    """Whether a function's (or procedure's) rules text calls super(...); text that does not
    parse counts as calling it, so that its errors are reported as before."""
    for line in body if isinstance(body, list) else [body]:
        try:
            tree = parse(as_str(line, span), "stmts" if effect else "expr", span)
        except RulesError:
            return True
        for root in tree if isinstance(tree, tuple) else (tree,):
            if any(isinstance(n, N.Call) and n.func == "super" for n in N.walk(root)):
                return True
    return False
