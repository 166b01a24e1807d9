"""A rules file's own functions and procedures, once compiled: made callable, memoised where
they read nothing but their arguments, and checked for recursion.

``install`` gives a ``UserFn`` its Python function (a call charges one unit of the step's
work); ``memoize_pure`` wraps the pure ones in ``codegen.memo``, keyed by the set of cards where
the order of a list argument cannot matter (``order_free``).
"""

from __future__ import annotations

from typing import Any

from . import nodes as N
from .builtins import BUILTINS
from .codegen import MemoPool, Namespace, Src, fn_of, memo
from .errors import CheckError, RulesError, RuntimeRulesError, Span
from .parse import parse
from .rules import as_str
from .runtime import PY_ERRORS, WORK, out_of_work
from .scope import UserFn


def install(uf: UserFn, fn: Any, ns: Namespace) -> None:
    n = uf.nslots
    if fn is None:
        uf.fn = lambda S, *a: None
        return
    k = len(uf.params)
    span = uf.span
    # generated code runs on a frame that starts with the arguments
    params = [f"a{i}" for i in range(k)]
    frame = "[" + ", ".join(params + ["None"] * (n - k)) + "]"
    if uf.effect:  # a procedure: its statements
        uf.fn = ns.define("_p", [f"def _p({', '.join(['S', *params])}):",
                                 *ns.charge_lines(span), f"    {ns.k(fn)}(S, {frame})"], span)
        return
    if isinstance(fn, Src):
        uf.fn = ns.function(params, frame, fn, span, f" (in '{uf.name}')", charge=True)
        return
    fn = fn_of(fn)
    if k == 1 and n == 1:
        def func1(S: Any, a: Any) -> Any:
            WORK[0] -= 1
            if WORK[0] < 0:
                out_of_work(span)
            try:
                return fn(S, [a])
            except PY_ERRORS as e:
                raise RuntimeRulesError(f"{type(e).__name__}: {e} (in '{uf.name}')", span) \
                    from None
        uf.fn = func1
        return

    def func(S: Any, *args: Any) -> Any:
        WORK[0] -= 1
        if WORK[0] < 0:
            out_of_work(span)
        F = list(args) + [None] * (n - k) if n > k else list(args)
        try:
            return fn(S, F)
        except PY_ERRORS as e:
            raise RuntimeRulesError(f"{type(e).__name__}: {e} (in '{uf.name}')", span) \
                from None

    uf.fn = func


def order_free(tree: N.Node, param: str) -> bool:
    """Whether the order of the list passed as ``param`` cannot matter: it is only looped over
    by a comprehension that sum/max/min/any/all reduce, sized, or searched with ``in``. (A
    hand evaluator then judges A K Q and K Q A once, not six times.)"""
    uses = allowed = 0
    for n in N.walk(tree):
        if isinstance(n, N.Name) and n.id == param:
            uses += 1
        elif isinstance(n, N.Call) and len(n.args) == 1 and not n.kwargs:
            arg = n.args[0]
            if (b := BUILTINS.get(n.func)) is not None and b.order_free and isinstance(
                    arg, N.Comprehension):
                allowed += sum(isinstance(it, N.Name) and it.id == param
                               for _v, it, _c in arg.clauses)
            elif n.func == "size" and isinstance(arg, N.Name) and arg.id == param:
                allowed += 1
        elif (isinstance(n, N.Compare) and n.ops in (("in",), ("not in",))
              and isinstance(n.operands[1], N.Name) and n.operands[1].id == param):
            allowed += 1
    return uses == allowed


def memoize_pure(functions: dict[str, UserFn]) -> None:
    """Remember the results of functions that read nothing but their arguments (hand
    evaluators, mostly): the same hand is judged many times in a game and across games."""
    changed = True
    while changed:  # a function is pure only if everything it calls is
        changed = False
        for uf in functions.values():
            if uf.pure and any(not functions[c].pure for c in uf.calls if c in functions):
                uf.pure = False
                changed = True
    pool = MemoPool()  # one bound on what all of them remember
    for uf in functions.values():
        if not uf.pure or uf.fn is None:
            continue
        uf.fn = memo(uf.fn, len(uf.params), uf.order_free, pool)


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


def recursion_errors(functions: dict[str, UserFn]) -> list[RulesError]:
    """Functions may not call themselves, directly or through others: every call ends."""
    errors: list[RulesError] = []
    reported: set[str] = set()
    for start in functions:
        stack = [(start, (start,))]
        seen: set[str] = set()
        while stack:
            name, path = stack.pop()
            for callee in functions[name].calls:
                if callee == start:
                    if start not in reported:
                        cyc = " -> ".join((*path, callee))
                        errors.append(CheckError(
                            f"'{start}' calls itself ({cyc}); recursion is not allowed, "
                            "use a loop or a comprehension", functions[start].span))
                        reported.update(path)
                elif callee not in seen and callee in functions:
                    seen.add(callee)
                    stack.append((callee, (*path, callee)))
    return errors
