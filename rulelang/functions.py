"""A rules file's own functions and procedures, once compiled: made callable, and memoised where
they read nothing but their arguments (recursion is refused by ``recursion.py``).

``install`` gives a ``UserFn`` its Python function (a call charges one unit of the step's
work); ``memoize_pure`` wraps the pure ones in ``memo.memo``, keyed by the set of cards where
the order of a list argument cannot matter (``order_free``).
"""

from __future__ import annotations

import re
from typing import Any

from . import nodes as N
from .builtins import BUILTINS
from .cardgroups import sums_in_place
from .codegen import Namespace, Src, fn_of, frame_only_indexed
from .errors import RulesError, Span
from .framelocals import frame_locals, init_line, try_define
from .limits import MEMO_KEY_ITEMS
from .memo import MemoPool, memo
from .recursion import recursion_errors as recursion_errors  # re-exported: tests name it here
from .runtime import PY_ERRORS, WORK, as_rules_error, out_of_work
from .scope import CARD_ATTRS, UserFn

TAIL = "@let"  # the name's ending of a function's tail made a function (lettail.py)


def install(uf: UserFn, fn: Any, ns: Namespace, charge: bool = True,
            where: str | None = None) -> None:
    """``uf.fn`` from its compiled body ``fn``; ``charge``: a call takes one unit of work
    (``where``: what a Python error's message says it was in; by default the function)."""
    n = uf.nslots
    if fn is None:  # its text did not compile: nothing to remember either
        uf.fn = lambda S, *a: None
        uf.pure = False
        return
    k = len(uf.params)
    span = uf.span
    if (charge and not uf.effect and uf.pure and not uf.calls and not uf.name.endswith(TAIL)
            and _one_pass(uf)):  # (pure, calling no function that may turn out impure)
        charge = _key_charge(ns, span)  # (then Src bodies below charge it; memoize_pure)
        inline = getattr(fn, "sums", None) if isinstance(fn, Src) else None
        if inline is not None and inline[0] == "inline" and inline[1][0] == "F[0]":
            first, then = sums_in_place(ns, *inline[1][1:])
            charge = first + charge + then
    # generated code runs on a frame that starts with the arguments
    params = [f"a{i}" for i in range(k)]
    frame = "[" + ", ".join(params + ["None"] * (n - k)) + "]"
    if uf.effect:  # a procedure: its statements, written into it where they are generated
        body = getattr(fn, "body", None)
        run = [f"    F = {frame}", *body] if body is not None else [f"    {ns.k(fn)}(S, {frame})"]
        head = [f"def _p({', '.join(['S', *params])}):", *ns.charge_lines(span)]
        loc = frame_locals("\n".join(body), k) if body is not None else None
        own = None if loc is None else [*init_line(loc[1]), *loc[0].split("\n")]
        uf.fn = try_define(ns, "_p", head + (own or run), head + run, span)
        return
    if isinstance(fn, Src):
        loc = frame_locals(fn.src, k)
        if loc is not None:  # the frame's slots as the function's own locals (framelocals.py)
            try:
                uf.fn = ns.function(params, init_line(loc[1]), Src(loc[0], fn.ns, fn.depth), span,
                                    f" (in '{uf.name}')" if where is None else where,
                                    charge=charge)
                uf.charges_key = isinstance(charge, list)
                return
            except SyntaxError:  # an assignment expression where Python refuses one
                ns.sources.pop()
        fn, frame = _params_local(fn, k, frame)
        uf.fn = ns.function(params, frame, fn, span,
                            f" (in '{uf.name}')" if where is None else where, charge=charge)
        uf.charges_key = isinstance(charge, list)
        return
    fn = fn_of(fn)
    if k == 1 and n == 1:
        def func1(S: Any, a: Any) -> Any:
            WORK[0] -= 1
            if WORK[0] < 0:
                out_of_work(span)
            try:
                return fn(S, [a])
            except (RulesError, *PY_ERRORS) as e:
                raise as_rules_error(e, span, f" (in '{uf.name}')") from None
        uf.fn = func1
        return

    def func(S: Any, *args: Any) -> Any:
        WORK[0] -= 1
        if WORK[0] < 0:
            out_of_work(span)
        F = list(args) + [None] * (n - k) if n > k else list(args)
        try:
            return fn(S, F)
        except (RulesError, *PY_ERRORS) as e:
            raise as_rules_error(e, span, f" (in '{uf.name}')") from None

    uf.fn = func


def _key_charge(ns: Namespace, span: Span) -> list[str]:
    """The first lines of a pure one-pass function of one argument (``_one_pass``), whose memo
    would stay paused for good: what that memo's wrapper charges (the argument's items, as
    the key it would build, none past MEMO_KEY_ITEMS; ``memokeys.paused_wrapper``), then
    the call's own unit, in one subtraction, each where it would run out; ``memoize_pure``
    then wraps it in no memo, one call fewer each time it is called."""
    return ["    if type(a0) is list or type(a0) is str:", "        _keyn = len(a0)",
            f"        if _keyn > {MEMO_KEY_ITEMS}:", "            _keyn = 0", "    else:",
            "        _keyn = 1", "    _left = WORK[0] - _keyn - 1", "    if _left < 0:",
            f"        _out_of_work(None if _left + 1 < 0 else {ns.k(span)})",
            "    WORK[0] = _left"]


def _params_local(fn: Src, k: int, frame: str) -> tuple[Src, str | None]:
    """A function's body reading its ``k`` parameters as the Python function's own (``a0``)
    rather than from the frame, which it then makes only if something else needs it (None):
    a local is read faster than a slot, and nothing writes a parameter's slot (a ``let``,
    loop or lambda of the body binds a slot of its own). Where a closure is handed the
    whole frame, or the slots are written after all, the body stays as it is."""
    src = fn.src
    if not frame_only_indexed(src):
        return fn, frame
    for i in range(k):
        if f"F.__setitem__({i}, " in src or f"for F[{i}] in " in src:
            return fn, frame
    for i in range(k):
        src = re.sub(r"\bF\[" + str(i) + r"\]", f"a{i}", src)
    out = Src(src, fn.ns, fn.depth)
    return out, frame if re.search(r"\bF\b", src) else None


def order_free(tree: N.Node, param: str, own: Any = ()) -> bool:
    """Whether the order of the list passed as ``param`` cannot matter: it is only looped over
    by a comprehension that sum/max/min/any/all reduce, sized, or searched with ``in``. (A
    hand evaluator then judges A K Q and K Q A once, not six times.) ``own``: the rules
    file's functions, which hide the built-ins of their names."""
    uses = sum(isinstance(n, N.Name) and n.id == param for n in N.walk(tree))
    return uses == _allowed_uses(tree, param, own)


def _allowed_uses(tree: N.Node, param: str, own: Any) -> int:
    """The uses of ``param`` in ``tree`` that ``order_free`` allows."""
    allowed = 0
    for n in N.walk(tree):
        if isinstance(n, N.Call) and len(n.args) == 1 and not n.kwargs and n.func not in own:
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
    return allowed


def spread_order_free(functions: dict[str, UserFn]) -> None:
    """A list parameter passed on only where a pure function's parameter is order-free (or
    used as ``order_free`` allows) is order-free too: ``total(cards)`` calling
    ``hard(cards)`` and ``soft(cards)``. Worked out until nothing changes."""
    changed = True
    while changed:
        changed = False
        for uf in functions.values():
            if not uf.pure or uf.tree is None or all(uf.order_free):
                continue
            free = list(uf.order_free)
            for i, p in enumerate(uf.params):
                if not free[i] and _free_through_calls(uf.tree, p, functions):
                    free[i] = changed = True
            uf.order_free = tuple(free)


def _free_through_calls(tree: N.Node, param: str, functions: dict[str, UserFn]) -> bool:
    """``order_free`` where a use may also be an argument of an order-free parameter of a
    pure rules function giving no card list (a number: as order-free as the built-in ``sum``
    that ``order_free`` allows)."""
    passed = 0
    for n in N.walk(tree):
        if isinstance(n, N.Call) and (g := functions.get(n.func)) is not None and g.pure \
                and g.ret in _FACELESS_RESULTS and not n.kwargs \
                and len(n.args) == len(g.order_free):
            passed += sum(isinstance(a, N.Name) and a.id == param and g.order_free[j]
                          for j, a in enumerate(n.args))
    if not passed:
        return False
    uses = sum(isinstance(n, N.Name) and n.id == param for n in N.walk(tree))
    return uses - passed == _allowed_uses(tree, param, functions)


# what a rules function may give back and still be keyed by its cards' faces: no card in it
_FACELESS_RESULTS = frozenset({"int", "num", "bool", "str"})


def _attrs_read(tree: N.Node, param: str, functions: dict[str, UserFn],
                faces: dict[str, list[frozenset[str] | None]]) -> frozenset[str] | None:
    """The card attributes through which alone the cards of the list passed as ``param`` can
    matter (None: they may matter otherwise, as the cards they are): the list is only sized,
    passed on where that holds too (``faces``, whose attributes are added), indexed for an
    attribute (``cs[0].rank``), looped over by comprehensions whose variable is only read
    for its attributes (``c.rank``), or tested (whole or a slice) for a run of any suits."""
    allowed: set[int] = set()
    looped: set[str] = set()
    attrs: set[str] = set()
    for n in N.walk(tree):
        if isinstance(n, N.Let) and n.name == param:
            return None
        if isinstance(n, N.Comprehension):
            for var, it, _c in n.clauses:
                if isinstance(it, N.Name) and it.id == param:
                    if var == param:
                        return None
                    allowed.add(id(it))
                    looped.add(var)
        elif isinstance(n, N.Call) and _rank_run_test(n, functions):
            # is_run(cs, suited: false), is_run(cs[i:], suited: false)
            a = n.args[0].obj if isinstance(n.args[0], N.Slice) else n.args[0]
            if isinstance(a, N.Name) and a.id == param:
                allowed.add(id(a))
                attrs |= _RUN_ATTRS
        elif isinstance(n, N.Call) and not n.kwargs:
            for i, a in enumerate(n.args):
                if not (isinstance(a, N.Name) and a.id == param):
                    continue
                if n.func in functions:
                    flags = faces.get(n.func)
                    got = flags[i] if flags is not None and i < len(flags) else None
                    if got is not None:
                        allowed.add(id(a))
                        attrs |= got
                elif n.func == "size" and len(n.args) == 1:
                    allowed.add(id(a))
        elif isinstance(n, N.Attr) and isinstance(n.obj, N.Index) and \
                isinstance(n.obj.obj, N.Name) and n.obj.obj.id == param:
            allowed.add(id(n.obj.obj))
            attrs.add(n.name)
    if looped & set(functions) or any(isinstance(n, N.Let) and n.name in looped
                                      for n in N.walk(tree)):
        return None
    for n in N.walk(tree):
        if isinstance(n, N.Attr) and isinstance(n.obj, N.Name) and n.obj.id in looped:
            allowed.add(id(n.obj))
            attrs.add(n.name)
    if all(id(n) in allowed for n in N.walk(tree)
           if isinstance(n, N.Name) and (n.id == param or n.id in looped)):
        return frozenset(attrs)
    return None


# what a run test of cards of any suits reads of a card: its place in the run (meldruns.py's
# ``positions``: the rank, or the order of a deck of its own)
_RUN_ATTRS = frozenset({"rank", "order"})


def _rank_run_test(n: N.Call, functions: dict[str, UserFn]) -> bool:
    """Whether ``n`` is ``is_run(cards, suited: false)`` (the built-in), which reads nothing
    of its cards but their places in a run (``_RUN_ATTRS``)."""
    return (n.func == "is_run" and n.func not in functions and len(n.args) == 1
            and any(k == "suited" and isinstance(v, N.Const) and v.value is False
                    for k, v in n.kwargs))


def faces_only(functions: dict[str, UserFn]) -> dict[str, list[frozenset[str] | None]]:
    """Per pure function giving no cards back, per parameter: the card attributes through
    which alone the cards passed there can matter, or None (``_attrs_read``), worked out until
    nothing changes (a function passing its cards on relies on the callee's answer: none
    read, at first)."""
    faces: dict[str, list[frozenset[str] | None]] = {
        name: [frozenset()] * len(uf.params) for name, uf in functions.items()
        if uf.pure and not uf.effect and uf.tree is not None
        and uf.ret in _FACELESS_RESULTS and "@" not in name}
    changed = True
    while changed:
        changed = False
        for name, flags in faces.items():
            for i, p in enumerate(functions[name].params):
                if flags[i] is None:
                    continue
                got = _attrs_read(functions[name].tree, p, functions, faces)
                if got != flags[i]:
                    flags[i] = got
                    changed = True
    return faces


def face_copies(sym: Any, attrs: frozenset[str]) -> dict[int, int] | None:
    """Each card id whose ``attrs`` (card attributes) are those of an earlier card -> that
    first card (empty: all differ); None where an attribute is not one of the deck's."""
    tables = []
    for a in sorted(attrs):
        t = sym.card_attrs[a][0] if a in sym.card_attrs else getattr(sym, "card_" + a, None)
        if (a not in CARD_ATTRS and a not in sym.card_attrs) or t is None:
            return None
        tables.append(t)
    first: dict[tuple, int] = {}
    out: dict[int, int] = {}
    for c in range(sym.deck_size):
        f = first.setdefault(tuple(t[c] if c < len(t) else None for t in tables), c)
        if f != c:
            out[c] = f
    return out


def memoize_pure(functions: dict[str, UserFn], sym: Any = None) -> None:
    """Remember the results of functions that read nothing but their arguments (hand
    evaluators, mostly): the same hand is judged many times in a game and across games.
    A list of cards that matter only by some of their attributes (``faces_only``) is keyed
    by those (``sym``: the deck's tables): the hands of other suits or packs alike are found."""
    # a function is pure only if everything it calls is: impurity spreads from each impure
    # function to its callers, each function visited once (a chain of thousands of functions
    # would otherwise take one pass over all of them per link)
    callers: dict[str, list[str]] = {name: [] for name in functions}
    for name, uf in functions.items():
        for c in uf.calls:
            if c in callers:
                callers[c].append(name)
    todo = [name for name, uf in functions.items() if not uf.pure]
    while todo:
        for caller in callers[todo.pop()]:
            if functions[caller].pure:
                functions[caller].pure = False
                todo.append(caller)
    spread_order_free(functions)
    pool = MemoPool()  # one bound on what all of them remember
    faces = faces_only(functions) if sym is not None else {}
    maps: dict[frozenset[str], dict[int, int] | None] = {}
    for name, uf in functions.items():
        if not uf.pure or uf.fn is None or uf.charges_key:
            continue
        keyed = []
        for attrs in faces.get(name, ()):
            if attrs is not None and attrs not in maps:
                maps[attrs] = face_copies(sym, attrs)
            keyed.append(maps[attrs] if attrs is not None else None)
        uf.fn = memo(uf.fn, len(uf.params), uf.order_free, pool, tuple(keyed),
                     _weights(sym, keyed[0] if keyed else None)
                     if len(uf.params) == 1 and uf.order_free and uf.order_free[0] else None,
                     deep=name.endswith(TAIL), cheap=_one_pass(uf))


# what a body may call and still be one pass over its list
_ONE_PASS_CALLS = frozenset({"sum", "count", "size"})
_ONE_PASS_NODES = (N.Const, N.Name, N.Attr, N.Index, N.BinOp, N.Compare, N.BoolOp, N.Not,
                   N.Neg, N.IfExpr, N.Comprehension, N.Lambda, N.Call)


def _one_pass(uf: UserFn) -> bool:
    """Whether a function of one argument is one pass over it (``count(cards): sum(points[c.rank]
    for c in cards)``: one loop, table lookups, no rules function called): worked out, it
    costs about what looking it up in its memo does (the key is a pass over the list too; a
    bundled game's search spent 3% of its instructions on such a memo), so its memo stays
    paused (``memo.memo``'s ``cheap``: the key's items are still charged, the same work).
    A comprehension compiled as one pass (``uf.one_pass``: sums by groups of cards,
    ``cardgroups.card_sums``) is one loop, its inner ``sum(...)`` none, and ``max``/``min``
    of it (a few numbers) no call that loops."""
    if len(uf.params) != 1 or uf.tree is None:
        return False
    loops = 0
    inside: set[int] = set()  # the inner comprehensions of one-pass ones
    for n in N.walk(uf.tree):
        if (isinstance(n, N.Call) and n.func in ("max", "min") and len(n.args) == 1
                and not n.kwargs and id(n.args[0]) in uf.one_pass):
            continue
        if not isinstance(n, _ONE_PASS_NODES) or (isinstance(n, N.Call) and n.func not in
                                                  _ONE_PASS_CALLS):
            return False
        if isinstance(n, N.Compare) and ("in" in n.ops or "not in" in n.ops):
            return False  # a list looked through for each item
        if isinstance(n, N.Comprehension) and id(n) in uf.one_pass:
            inside.add(id(n.elt.args[0]))
            loops += 1
            continue
        if id(n) in inside:
            continue
        loops += len(n.clauses) if isinstance(n, N.Comprehension) else isinstance(n, N.Lambda)
    return loops <= 1


MAX_WEIGHT_CLASSES = 128  # kinds of card a one-list memo key counts (9 bits each) at most


def _weights(sym: Any, alike: dict[int, int] | None) -> dict[int, int] | None:
    """Each card id -> 512 ** (its kind's number), kinds being the cards alike by ``alike``
    (``face_copies``), so that the same hand in other suits or packs is found too: a list of at most
    MEMO_KEY_ITEMS (< 512) cards is then keyed exactly, as a multiset of kinds, by the sum of
    its cards' weights (``memo.memo``); None where the deck has too many kinds."""
    if sym is None or not alike:  # distinct cards: their sorted ids are as cheap a key
        return None
    kinds: dict[int, int] = {}
    out = {}
    for c in range(sym.deck_size):
        f = alike.get(c, c)
        out[c] = 1 << (9 * kinds.setdefault(f, len(kinds)))
    return out if len(kinds) <= MAX_WEIGHT_CLASSES else None
